#!/usr/bin/env bash
# Fresh Debian machine -> torchtidy's findings on the bundled example.
# Installs the dependencies, builds for LLVM 22 and lints
# examples/train_mnist.cpp with clang-tidy-22 and the torchtidy module.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh 22
torchtidy=build/llvm-22/bin/torchtidy
echo "== $($torchtidy --version); checks:"
$torchtidy --list-checks
echo "== clang-tidy-22 --load=\$(torchtidy --print-plugin-path) --checks='-*,libtorch-*' examples/train_mnist.cpp"
clang-tidy-22 --quiet --load="$($torchtidy --print-plugin-path)" \
  --checks='-*,libtorch-*' examples/train_mnist.cpp \
  -- -std=c++17 -isystem /usr/include/torch/csrc/api/include
