"""setup.py <inputs> <dir> <torch flags...>: the projects in <dir>.

small/: files that start with <torch/api.h> from a system directory, and the
shapes that must not share (a macro the header looks at or defined twice,
a quoted include first, no LibTorch header, a user header reached with
<torch/...>, other flags).
many/: more prefixes than the cache keeps. three/: three files of one
prefix, for two workers (one builds the PCH, one waits for it). torch/: two
copies of the bundled example, parsed against LibTorch's headers without
the tests' PCH. targets/: a CMake-like project (../shared-pch-targets), one
build folder and -I folders per target, each unit starting with its own
header. cuda/: two files whose prefix ends with a header that does not
compile here.
"""
import json
import os
import shutil
import sys

inputs, root, torch_flags = sys.argv[1], sys.argv[2], sys.argv[3:]
shutil.rmtree(root, ignore_errors=True)
small = os.path.join(root, "small")
shutil.copytree(inputs, small, ignore=shutil.ignore_patterns("setup.py"))
flags = ["-std=c++17", "-isystem", os.path.join(small, "sys"),
         "-I", os.path.join(small, "user")]
commands = []
for name, extra in [("first", []), ("second", []), ("broken", []),
                    ("broken-candidate", []), ("broken-typo", []),
                    ("macro-first", []), ("macro-skipped", []),
                    ("macro-named", []), ("macro-predefined", []),
                    ("macro-twice", []),
                    ("macro-in-header", []), ("quoted-first", []),
                    ("no-libtorch", []),
                    ("user-one", []), ("user-two", []),
                    ("other-flags", ["-DOTHER=1"])]:
    source = os.path.join(small, name + ".cpp")
    if name == "other-flags":
        shutil.copy(os.path.join(small, "first.cpp"), source)
    commands.append({"directory": small, "file": source,
                     "arguments": ["/usr/bin/c++", *flags, *extra, "-o",
                                   name + ".o", "-c", source]})
with open(os.path.join(small, "compile_commands.json"), "w") as out:
    json.dump(commands, out, indent=1)

# many/: six groups of two files (flags of their own), five in one database
# and the sixth in another, sharing one cache directory.
many = os.path.join(root, "many")
for run, groups in (("five", range(1, 6)), ("sixth", [6])):
    project = os.path.join(many, run)
    os.makedirs(project)
    commands = []
    for group in groups:
        for member in ("a", "b"):
            source = os.path.join(project, f"g{group}{member}.cpp")
            shutil.copy(os.path.join(small, "first.cpp"), source)
            commands.append({"directory": project, "file": source,
                             "arguments": ["/usr/bin/c++", *flags,
                                           f"-DGROUP={group}", "-c", source]})
    with open(os.path.join(project, "compile_commands.json"), "w") as out:
        json.dump(commands, out, indent=1)

def copies_project(name, copied, members, unit_flags):
    """<root>/<name>/: one copy of the file copied per member, each compiled
    with unit_flags."""
    project = os.path.join(root, name)
    os.makedirs(project)
    commands = []
    for member in members:
        source = os.path.join(project, member + ".cpp")
        shutil.copy(copied, source)
        commands.append({"directory": project, "file": source,
                         "arguments": ["/usr/bin/c++", *unit_flags, "-c",
                                       source]})
    with open(os.path.join(project, "compile_commands.json"), "w") as out:
        json.dump(commands, out, indent=1)


copies_project("three", os.path.join(small, "first.cpp"), ("a", "b", "c"),
               flags)
# cuda/: two files whose prefix ends with a header that does not compile
# here (LibTorch's CUDA headers without CUDA's).
copies_project("cuda", os.path.join(inputs, "cuda-first.cpp.in"), ("a", "b"),
               flags)

example = os.path.join(inputs, "..", "..", "..", "..", "..", "examples",
                       "train_mnist.cpp")
copies_project("torch", example, ("train_a", "train_b"), torch_flags)

# targets/: per target, its build folder and its own -I folders, as CMake's
# target_include_directories writes them.
targets = os.path.join(root, "targets")
shutil.copytree(os.path.join(inputs, "..", "shared-pch-targets"), targets)
system = ["-std=c++17", "-isystem", os.path.join(targets, "sys")]
commands = []
for target, unit, folders in [
        ("decoder", "decoder/decoder.cpp", ["decoder"]),
        ("encoder", "encoder/src/encoder.cpp", ["encoder/include"]),
        ("app", "encoder/src/main.cpp", ["encoder/include", "decoder"]),
        ("macro", "macro/macro.cpp", ["macro"]),
        ("conditional", "macro/conditional.cpp", ["macro"]),
        ("quoted", "quoted/quoted.cpp", ["quoted"]),
        ("zoo", "zoo/zoo.cpp", ["zoo"]),
        ("missing", "missing/missing.cpp", ["missing"]),
        ("qt", "qt/qt.cpp", ["qt"]),
        ("qt-defined", "qt/qt.cpp", ["qt"]),
        ("msvc", "msvc/msvc.cpp", ["msvc"]),
        ("msvc-extensions", "msvc/msvc.cpp", ["msvc"]),
        ("shadow", "shadow/shadow.cpp", ["shadow"])]:
    build = os.path.join(targets, "build", target)
    os.makedirs(build)
    source = os.path.join(targets, unit)
    includes = [flag for folder in folders
                for flag in ("-I", os.path.relpath(
                    os.path.join(targets, folder), build))]
    # The same unit again (a copy), with `slots` defined on the command
    # line: the #undef undoes it, and ends the prefix.
    if target == "qt-defined":
        source = os.path.join(targets, "qt", "qt-defined.cpp")
        shutil.copy(os.path.join(targets, unit), source)
        includes.append("-Dslots=Q_SLOTS")
    # The same unit again with Microsoft extensions, where clang acts on
    # `#pragma warning`: no prefix.
    if target == "msvc-extensions":
        source = os.path.join(targets, "msvc", "msvc-extensions.cpp")
        shutil.copy(os.path.join(targets, unit), source)
        includes.append("-fms-extensions")
    commands.append({"directory": build, "file": source,
                     "arguments": ["/usr/bin/c++", *system, *includes, "-o",
                                   target + ".o", "-c", source]})
with open(os.path.join(targets, "compile_commands.json"), "w") as out:
    json.dump(commands, out, indent=1)
