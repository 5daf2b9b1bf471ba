#!/usr/bin/env bash
# Installs every build and test dependency of torchtidy from Debian packages.
# Usage: scripts/install-deps.sh            (LLVM 22 and 19, LibTorch, test tools)
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# libclang-rt-22-dev: the sanitizer runtimes and libFuzzer, for the
# sanitizer build (scripts/build.sh 22 sanitize).
pkgs=(cmake ninja-build googletest libgtest-dev libtorch-dev python3 groff-base
      libclang-rt-22-dev)
for v in 22 19; do
  pkgs+=(clang-$v clang-tidy-$v libclang-$v-dev llvm-$v-dev llvm-$v-tools)
done
$SUDO apt-get install -y -qq --no-install-recommends "${pkgs[@]}"
