"""Writes <dir>/compile_commands.json listing the given sources, compiled
with the flags after '--'. Usage: write_database.py <dir> src... -- flags"""
import json
import os
import sys

directory = sys.argv[1]
split = sys.argv.index("--")
sources, flags = sys.argv[2:split], sys.argv[split + 1:]
entries = [{"directory": os.path.dirname(os.path.abspath(s)),
            "file": os.path.abspath(s),
            "arguments": ["clang++"] + flags + ["-c", os.path.abspath(s)]}
           for s in sources]
with open(os.path.join(directory, "compile_commands.json"), "w") as out:
    json.dump(entries, out)
