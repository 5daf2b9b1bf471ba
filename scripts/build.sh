#!/usr/bin/env bash
# Configures and builds torchtidy against one LLVM version.
# Usage: scripts/build.sh [LLVM major version, default 22] [sanitize|tool]
#                        [-D<cmake option>=<value>...]
#   scripts/build.sh 22            -> build/llvm-22 (release, with the tests)
#   scripts/build.sh 22 sanitize   -> build/llvm-22-sanitize: clang-22 with
#     ASan+UBSan, the static tool, its tests and the fuzz target only
#   scripts/build.sh 22 tool       -> build/llvm-22-tool: torchtidy, its
#     clang-tidy module and compiler plugin only, no tests and no runtime
#     checker (what scripts/demo.sh runs; a few minutes on a fresh machine)
# Compiles with clang++ of the same LLVM version (installed with it), or with
# $CXX when set. Clang, not the system g++: with the precompiled headers of
# Clang's own AST headers and of <torch/torch.h> it builds the whole tree in
# 0.4 of g++'s time on a 2-core machine (docs/robustness.md, "What CI samples,
# and why"); g++ 12 builds it too.
set -euo pipefail
cd "$(dirname "$0")/.."
v="${1:-22}"
shift || true
variant=""
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
  variant=$1
  shift
fi
cmake_options=("$@")  # passed on to cmake: -DTORCHTIDY_LIBTORCH2_INCLUDE=...
compiler="${CXX:-/usr/lib/llvm-$v/bin/clang++}"
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
    # The sanitizer runtime and libFuzzer come with clang: never $CXX.
    compiler="/usr/lib/llvm-$v/bin/clang++"
    extra=(-DTORCHTIDY_SANITIZE=ON -DTORCHTIDY_FUZZ=ON)
    targets=(all)
    ;;
  *)
    echo "build.sh: unknown variant '$variant' (expected: sanitize or tool)" >&2
    exit 2
    ;;
esac
# A build directory configured with another compiler is configured afresh:
# CMake would delete its cache itself, and with it the LLVM_DIR below, and
# configure against the default LLVM instead.
if [ -f "$dir/CMakeCache.txt" ] &&
   ! grep -q "^CMAKE_CXX_COMPILER:[A-Z]*=$compiler\$" "$dir/CMakeCache.txt"; then
  echo "build.sh: $dir was configured with another compiler; configuring it afresh with $compiler" >&2
  rm -rf "$dir/CMakeCache.txt" "$dir/CMakeFiles"
fi
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$compiler" -DLLVM_DIR="/usr/lib/llvm-$v/lib/cmake/llvm" "${extra[@]}" \
  "${cmake_options[@]}" >/dev/null
cmake --build "$dir" --target "${targets[@]}"
