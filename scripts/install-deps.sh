#!/usr/bin/env bash
# Installs every build and test dependency of torchtidy from Debian packages.
# Usage: scripts/install-deps.sh            (LLVM 22 and 19, LibTorch, test tools)
#        scripts/install-deps.sh --tool     (what building and running torchtidy
#                                            for LLVM 22 needs: scripts/demo.sh)
set -euo pipefail
scope="${1:-all}"
case "$scope" in
  all|--tool) ;;
  *) echo "install-deps.sh: unknown option '$scope' (expected: --tool)" >&2
     exit 2 ;;
esac
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# libclang-rt-22-dev: the sanitizer runtimes and libFuzzer, for the
# sanitizer build (scripts/build.sh 22 sanitize).
# clang-22 and llvm-22-tools: LLVM's and Clang's CMake packages name their
# binaries, so configuring needs them even where nothing runs them.
# neovim: its built-in LSP client drives `torchtidy lsp` in the tests.
pkgs=(cmake ninja-build libtorch-dev)
versions=(22)
if [ "$scope" = all ]; then
  pkgs+=(googletest libgtest-dev python3 groff-base libclang-rt-22-dev neovim)
  versions+=(19)
fi
for v in "${versions[@]}"; do
  pkgs+=(clang-$v clang-tidy-$v libclang-$v-dev llvm-$v-dev llvm-$v-tools)
done
$SUDO apt-get install -y -qq --no-install-recommends "${pkgs[@]}"
