#!/bin/sh
# compare-frontends.sh <clang-tidy> <module> <torchtidy> <clang++> <plugin> <out> <file>... -- <flags>
# Lints each file through the clang-tidy module, the torchtidy command and the
# compiler plugin, and fails unless the three report the same warnings.
set -u
tidy=$1 module=$2 torchtidy=$3 clangxx=$4 plugin=$5 out=$6; shift 6
files=""
while [ "$1" != "--" ]; do files="$files $1"; shift; done
shift
mkdir -p "$out"
status=0
for f in $files; do
  name=$(basename "$f")
  # Warnings only (notes differ in form: the plugin tags them), sorted.
  "$tidy" --quiet --load="$module" --checks='-*,libtorch-*' "$f" -- "$@" 2>/dev/null \
    | grep ': warning: ' | sort > "$out/$name.tidy"
  # Every level in all three: clang-tidy has no levels.
  "$torchtidy" --level=style "$f" -- "$@" 2>/dev/null | grep ': warning: ' | sort > "$out/$name.driver"
  "$clangxx" -fplugin="$plugin" -fplugin-arg-torchtidy-level=style -fsyntax-only "$@" "$f" 2>&1 \
    | grep ': warning: ' | sort > "$out/$name.plugin"
  if [ ! -s "$out/$name.tidy" ]; then
    echo "no warnings from clang-tidy for $name"; status=1
  fi
  diff "$out/$name.tidy" "$out/$name.driver" > /dev/null || { echo "torchtidy differs on $name"; diff "$out/$name.tidy" "$out/$name.driver"; status=1; }
  diff "$out/$name.tidy" "$out/$name.plugin" > /dev/null || { echo "plugin differs on $name"; diff "$out/$name.tidy" "$out/$name.plugin"; status=1; }
  echo "$name: $(wc -l < "$out/$name.tidy") warnings, same in all three front-ends"
done
exit $status
