"""Writes <dir>/compile_commands.json with <n> entries: <n> - 1 files that do
not exist (a big monorepo's database, most of it for other targets), then the
given source, compiled with the flags after '--'.
Usage: huge_database.py <dir> <n> <source> -- flags"""
import json
import os
import sys

directory, count, source = sys.argv[1], int(sys.argv[2]), sys.argv[3]
flags = sys.argv[sys.argv.index("--") + 1:]
source = os.path.abspath(source)
root = os.path.dirname(source)
with open(os.path.join(directory, "compile_commands.json"), "w") as out:
    out.write("[\n")
    for i in range(count - 1):
        name = os.path.join(root, "gen", f"module{i % 97}", f"unit{i}.cpp")
        entry = {"directory": root, "file": name,
                 "arguments": ["clang++"] + flags + ["-DUNIT=%d" % i, "-c", name]}
        out.write(json.dumps(entry) + ",\n")
    out.write(json.dumps({"directory": root, "file": source,
                          "arguments": ["clang++"] + flags + ["-c", source]}))
    out.write("\n]\n")
