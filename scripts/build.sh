#!/usr/bin/env bash
# Configures and builds torchtidy against one LLVM version.
# Usage: scripts/build.sh [LLVM major version, default 22]   -> build/llvm-<v>
set -euo pipefail
cd "$(dirname "$0")/.."
v="${1:-22}"
cmake -S . -B "build/llvm-$v" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DLLVM_DIR="/usr/lib/llvm-$v/lib/cmake/llvm" >/dev/null
cmake --build "build/llvm-$v"
