#!/usr/bin/env bash
# Configures and builds torchtidy against one LLVM version.
# Usage: scripts/build.sh [LLVM major version, default 22] [sanitize]
#   scripts/build.sh 22            -> build/llvm-22 (release)
#   scripts/build.sh 22 sanitize   -> build/llvm-22-sanitize: clang-22 with
#     ASan+UBSan, the static tool, its tests and the fuzz target only
set -euo pipefail
cd "$(dirname "$0")/.."
v="${1:-22}"
variant="${2:-}"
case "$variant" in
  "")
    dir="build/llvm-$v"
    extra=()
    ;;
  sanitize)
    dir="build/llvm-$v-sanitize"
    extra=(-DCMAKE_CXX_COMPILER="/usr/lib/llvm-$v/bin/clang++"
           -DTORCHTIDY_SANITIZE=ON -DTORCHTIDY_FUZZ=ON)
    ;;
  *)
    echo "build.sh: unknown variant '$variant' (expected: sanitize)" >&2
    exit 2
    ;;
esac
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DLLVM_DIR="/usr/lib/llvm-$v/lib/cmake/llvm" "${extra[@]}" >/dev/null
cmake --build "$dir"
