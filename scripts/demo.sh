#!/usr/bin/env bash
# Fresh Debian machine -> torchtidy's findings on the bundled example.
# Installs what building and running torchtidy for LLVM 22 needs, builds the
# tool alone (no tests, no runtime checker: scripts/test.sh builds those) and
# lints examples/train_mnist.cpp with clang-tidy-22 and the torchtidy module.
# Each step says what it does and, when done, how long it took.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
step() {
  echo "== [$((SECONDS - started)) s] $*"
}
step "installing the Debian packages: LLVM 22 (clang, clang-tidy, dev files), LibTorch headers, cmake, ninja"
scripts/install-deps.sh --tool
step "building torchtidy, its clang-tidy module and compiler plugin for LLVM 22 (build/llvm-22-tool)"
scripts/build.sh 22 tool
torchtidy=build/llvm-22-tool/bin/torchtidy
step "$($torchtidy --version); checks:"
$torchtidy --list-checks
step "clang-tidy-22 --load=\$(torchtidy --print-plugin-path) --checks='-*,libtorch-*' examples/train_mnist.cpp (parsing LibTorch's headers takes a while)"
clang-tidy-22 --quiet --load="$($torchtidy --print-plugin-path)" \
  --checks='-*,libtorch-*' examples/train_mnist.cpp \
  -- -std=c++17 -isystem /usr/include/torch/csrc/api/include
step "done"
