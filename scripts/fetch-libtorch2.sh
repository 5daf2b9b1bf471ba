#!/usr/bin/env bash
# Fetches LibTorch 2.x's headers, Debian sid's libtorch-dev, into a directory
# without touching the machine's packages: a private apt sources list and
# package lists under that directory, `apt-get download`, `dpkg -x`. What is
# there already is kept: the network is used once per directory.
# Usage: scripts/fetch-libtorch2.sh [DIR]   (default: build/libtorch2)
# Prints the include directory, DIR/include (a link to the unpacked
# root/usr/include); the C++ API headers are under its
# torch/csrc/api/include. LibTorch 2.x needs -std=c++20.
# Exit: 0 the headers are there, 1 they could not be fetched.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="$(realpath -m "${1:-build/libtorch2}")"
# The version CI tests against. sid moves on: when it no longer has this
# one, the newest is taken, with a warning, so that CI says what changed.
wanted_version="2.14.1+dfsg-1"
include="$dir/include"

if [ -f "$dir/version" ] && [ -f "$include/torch/csrc/api/include/torch/torch.h" ]; then
  echo "fetch-libtorch2: LibTorch $(cat "$dir/version") headers already in $dir" >&2
  echo "$include"
  exit 0
fi

mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial" "$dir/download"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian sid main" \
  > "$dir/apt/sources.list"
apt_private=(-o Dir::Etc::SourceList="$dir/apt/sources.list"
             -o Dir::Etc::SourceParts=/dev/null
             -o Dir::State::Lists="$dir/apt/lists"
             -o Dir::Cache="$dir/apt/cache"
             -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
echo "fetch-libtorch2: reading Debian sid's package list (private to $dir)" >&2
if ! apt-get -qq "${apt_private[@]}" update >&2; then
  echo "fetch-libtorch2: apt-get update of Debian sid failed (no network?)" >&2
  exit 1
fi
(
  cd "$dir/download"
  rm -f ./*.deb
  if ! apt-get -qq "${apt_private[@]}" download "libtorch-dev=$wanted_version" >&2 2>/dev/null; then
    echo "fetch-libtorch2: warning: sid no longer has libtorch-dev $wanted_version; taking its newest" >&2
    apt-get -qq "${apt_private[@]}" download libtorch-dev >&2
  fi
)
deb=$(ls "$dir"/download/libtorch-dev_*.deb)
rm -rf "$dir/root" "$include"
dpkg -x "$deb" "$dir/root"
ln -s root/usr/include "$include"
dpkg-deb -f "$deb" Version > "$dir/version"
if [ ! -f "$include/torch/csrc/api/include/torch/torch.h" ]; then
  echo "fetch-libtorch2: $deb has no torch/torch.h" >&2
  exit 1
fi
echo "fetch-libtorch2: LibTorch $(cat "$dir/version") headers in $dir" >&2
echo "$include"
