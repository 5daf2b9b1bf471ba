#!/usr/bin/env bash
# Configures and builds torchtidy against one LLVM version.
# Usage: scripts/build.sh [LLVM major version, default 22] [sanitize|tool]
#   scripts/build.sh 22            -> build/llvm-22 (release, with the tests)
#   scripts/build.sh 22 sanitize   -> build/llvm-22-sanitize: clang-22 with
#     ASan+UBSan, the static tool, its tests and the fuzz target only
#   scripts/build.sh 22 tool       -> build/llvm-22-tool: torchtidy, its
#     clang-tidy module and compiler plugin only, no tests and no runtime
#     checker (what scripts/demo.sh runs; a few minutes on a fresh machine)
set -euo pipefail
cd "$(dirname "$0")/.."
v="${1:-22}"
variant="${2:-}"
case "$variant" in
  "")
    dir="build/llvm-$v"
    extra=()
    targets=(all)
    ;;
  tool)
    dir="build/llvm-$v-tool"
    extra=(-DBUILD_TESTING=OFF)
    targets=(torchtidy)
    ;;
  sanitize)
    dir="build/llvm-$v-sanitize"
    extra=(-DCMAKE_CXX_COMPILER="/usr/lib/llvm-$v/bin/clang++"
           -DTORCHTIDY_SANITIZE=ON -DTORCHTIDY_FUZZ=ON)
    targets=(all)
    ;;
  *)
    echo "build.sh: unknown variant '$variant' (expected: sanitize or tool)" >&2
    exit 2
    ;;
esac
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DLLVM_DIR="/usr/lib/llvm-$v/lib/cmake/llvm" "${extra[@]}" >/dev/null
cmake --build "$dir" --target "${targets[@]}"
