#!/usr/bin/env bash
# Fetches LibTorch 2.x, Debian sid's, into a directory without touching the
# machine's packages: a private apt sources list and package lists under that
# directory, `apt-get download`, `dpkg -x`. What is there already is kept:
# the network is used once per directory.
# Usage: scripts/fetch-libtorch2.sh [--runtime] [DIR]   (default: build/libtorch2)
#   the headers (libtorch-dev, 3 MB) into DIR/root; with --runtime also, into
#   DIR/sysroot, libtorch-dev with its libraries and everything they need,
#   sid's C and C++ runtimes and their development files included (about 130
#   packages, 1 GB unpacked), so that programs can be built against it and
#   run on this machine with its loader (cmake/UnpackedDebianRoot.cmake). No
#   maintainer script runs: the few links they would make that LibTorch
#   needs are made here. Two roots, as the static tests parse LibTorch's
#   headers with this machine's C library: sid's must not be next to them.
# Prints the include directory, DIR/include (a link to root/usr/include); the
# C++ API headers are under its torch/csrc/api/include. LibTorch 2.x needs
# -std=c++20.
# Exit: 0 LibTorch is there, 1 it could not be fetched or does not load,
# 2 usage error.
set -euo pipefail
cd "$(dirname "$0")/.."
runtime=0
dir_argument=""
for argument in "$@"; do
  case "$argument" in
  --runtime) runtime=1 ;;
  -*) echo "fetch-libtorch2: unknown option '$argument' (usage: $0 [--runtime] [DIR])" >&2; exit 2 ;;
  *) dir_argument=$argument ;;
  esac
done
dir="$(realpath -m "${dir_argument:-build/libtorch2}")"
# The version CI tests against. sid moves on: when it no longer has this
# one, the newest is taken, with a warning, so that CI says what changed.
wanted_version="2.14.1+dfsg-1"
include="$dir/include"
root="$dir/root"
sysroot="$dir/sysroot"
multiarch="$sysroot/usr/lib/x86_64-linux-gnu"

headers_there() {
  [ -f "$dir/version" ] && [ -f "$include/torch/csrc/api/include/torch/torch.h" ]
}
if headers_there && { [ "$runtime" = 0 ] || [ -f "$dir/runtime-version" ]; }; then
  echo "fetch-libtorch2: LibTorch $(cat "$dir/version") $([ "$runtime" = 1 ] && echo "runtime" || echo "headers") already in $dir" >&2
  echo "$include"
  exit 0
fi

mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial" "$dir/download"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian sid main" \
  > "$dir/apt/sources.list"
# An empty package status: apt resolves as for a machine with nothing
# installed, so --runtime gets the whole closure, never this machine's.
: > "$dir/apt/status"
apt_private=(-o Dir::Etc::SourceList="$dir/apt/sources.list"
             -o Dir::Etc::SourceParts=/dev/null
             -o Dir::State::Lists="$dir/apt/lists"
             -o Dir::State::status="$dir/apt/status"
             -o Dir::Cache="$dir/apt/cache"
             -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
echo "fetch-libtorch2: reading Debian sid's package list (private to $dir)" >&2
if ! apt-get -qq "${apt_private[@]}" update >&2; then
  echo "fetch-libtorch2: apt-get update of Debian sid failed (no network?)" >&2
  exit 1
fi
version=$wanted_version
if ! apt-cache "${apt_private[@]}" show "libtorch-dev=$wanted_version" > /dev/null 2>&1; then
  version=$(apt-cache "${apt_private[@]}" policy libtorch-dev | sed -n 's/^ *Candidate: //p')
  echo "fetch-libtorch2: warning: sid no longer has libtorch-dev $wanted_version; taking its newest, $version" >&2
fi

if ! headers_there; then
  (
    cd "$dir/download"
    rm -f ./*.deb
    apt-get -qq "${apt_private[@]}" download "libtorch-dev=$version" >&2
  )
  deb=$(ls "$dir"/download/libtorch-dev_*.deb)
  rm -rf "$root" "$include" "$sysroot" "$dir/runtime-version"
  dpkg -x "$deb" "$root"
  ln -s root/usr/include "$include"
  dpkg-deb -f "$deb" Version > "$dir/version"
  if [ ! -f "$include/torch/csrc/api/include/torch/torch.h" ]; then
    echo "fetch-libtorch2: $deb has no torch/torch.h" >&2
    exit 1
  fi
  echo "fetch-libtorch2: LibTorch $(cat "$dir/version") headers in $dir" >&2
fi

if [ "$runtime" = 1 ]; then
  # The C++ library's development files of the GCC that sid's libstdc++6 comes
  # from (libstdc++-dev is virtual: apt wants a real package).
  gcc_major=$(apt-cache "${apt_private[@]}" policy libstdc++6 | sed -n 's/^ *Candidate: \([0-9]*\).*/\1/p')
  packages=("libtorch-dev=$version" libc6-dev "libstdc++-$gcc_major-dev")
  echo "fetch-libtorch2: downloading ${packages[*]} and what they need" >&2
  archives="$dir/download/runtime"
  mkdir -p "$archives/partial"
  apt-get -qq -y "${apt_private[@]}" -o Dir::Cache::archives="$archives" \
    -o APT::Install-Recommends=0 --download-only install "${packages[@]}" >&2
  echo "fetch-libtorch2: unpacking $(ls "$archives"/*.deb | wc -l) packages into $sysroot" >&2
  rm -rf "$sysroot"
  for deb in "$archives"/*.deb; do
    dpkg -x "$deb" "$sysroot"
  done
  # What base-files and the maintainer scripts would have made: the merged
  # /usr's links (libc's linker script names /lib64/ld-linux-x86-64.so.2),
  # and the alternatives LibTorch links against.
  for link in lib lib64 bin sbin; do
    [ -e "$sysroot/$link" ] || ln -s "usr/$link" "$sysroot/$link"
  done
  for library in libblas.so.3 liblapack.so.3; do
    if [ ! -e "$multiarch/$library" ]; then
      provider=$(cd "$multiarch" && ls -d */"$library" 2>/dev/null | head -n 1)
      [ -n "$provider" ] && ln -s "$provider" "$multiarch/$library"
    fi
  done
  # Every library LibTorch needs must resolve inside the root, through the
  # directories cmake/UnpackedDebianRoot.cmake gives programs, never to this
  # machine's copy of it.
  loader="$sysroot/usr/lib64/ld-linux-x86-64.so.2"
  library_path="$multiarch:$sysroot/usr/lib"
  for directory in $(cat "$sysroot"/etc/ld.so.conf.d/*.conf 2>/dev/null | grep '^/' || true); do
    library_path+=":$sysroot$directory"
  done
  if [ ! -x "$loader" ]; then
    echo "fetch-libtorch2: no loader at $loader" >&2
    exit 1
  fi
  unresolved=$("$loader" --library-path "$library_path" --list "$multiarch/libtorch.so" 2>&1 |
               grep -v -E "=> $sysroot/|^[[:space:]]*$sysroot/|linux-vdso" || true)
  if [ -n "$unresolved" ]; then
    echo "fetch-libtorch2: LibTorch's libraries do not all resolve inside $sysroot:" >&2
    echo "$unresolved" >&2
    exit 1
  fi
  dpkg-deb -f "$(ls "$archives"/libtorch2.*_*.deb | head -n 1)" Version > "$dir/runtime-version"
  echo "fetch-libtorch2: LibTorch $(cat "$dir/runtime-version") runtime in $sysroot" >&2
fi
echo "$include"
