#!/bin/sh
# setup.sh <inputs> <workdir> <flags...>: a project with a compilation database.
set -e
inputs=$1; dir=$2; shift 2
rm -rf "$dir" && mkdir -p "$dir/src" "$dir/build"
cp "$inputs"/buggy.cpp "$inputs"/clean.cpp "$inputs"/broken.cpp "$dir/src/"
sed -e "s|@DIR@|$dir/src|g" -e "s|@FLAGS@|$*|g" \
  "$inputs/compile_commands.json.in" > "$dir/build/compile_commands.json"
