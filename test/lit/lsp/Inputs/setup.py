"""A project for the language server's tests: the sources in <out>/src, and
<out>/build/compile_commands.json compiling them with the given flags (the
header under <out>/src is in no command, as headers are not). slow.cpp is
compiled without the flags' -include-pch: its lint parses LibTorch's
headers whole, long enough to be saved again while it runs."""
import json
import os
import shutil
import sys

here = os.path.dirname(os.path.abspath(__file__))
out, flags = os.path.abspath(sys.argv[1]), sys.argv[2].split()
os.makedirs(os.path.join(out, "src"), exist_ok=True)
os.makedirs(os.path.join(out, "build"), exist_ok=True)
commands = []
without_pch = list(flags)
if "-include-pch" in without_pch:
    at = without_pch.index("-include-pch")
    del without_pch[at:at + 2]
for name, unit_flags in (("train.cpp", flags), ("broken.cpp", flags),
                         ("slow.cpp", without_pch)):
    source = os.path.join(out, "src", name)
    shutil.copy(os.path.join(here, name if name != "slow.cpp" else
                             "train.cpp"), source)
    commands.append({"directory": os.path.join(out, "build"), "file": source,
                     "arguments": ["c++", *unit_flags, "-c", source]})
with open(os.path.join(out, "src", "helpers.h"), "w") as header:
    header.write("#pragma once\n#include <torch/torch.h>\n")
with open(os.path.join(out, "build", "compile_commands.json"), "w") as db:
    json.dump(commands, db, indent=1)
