"""Checks a runtime report written by the shim (libtorchtidy_rt.so) against
the format of docs/runtime.md and prints it one fact a line, for FileCheck:

  end exit 0 | end exception <what> | end signal 11 | end running
  event <kind> <op> count=<n> operands=<device>:<dtype>[<shape>],...
        at=<file>:<line> frames=<n>      (on the same line)
  growth first=<depth> last=<depth> iterations=<n> per_iteration=<rate>
  dropped <n>
  problem <sentence>

at= is the first frame in the program's own code: the innermost frame in the
program's module that symbolizes (llvm-symbolizer, else addr2line) to a
location outside the system headers, inlined ones included. A report that breaks the format
makes this script fail, naming what is wrong.

Usage: summarize-report.py <report.json> [--pid-file <file>]
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys


def fail(message):
    sys.exit("summarize-report: " + message)


def expect(condition, message):
    if not condition:
        fail(message)


def symbolizer():
    found = shutil.which("llvm-symbolizer")
    if not found:
        candidates = sorted(glob.glob("/usr/lib/llvm-*/bin/llvm-symbolizer"))
        found = candidates[-1] if candidates else None
    if found:
        return [found, "--inlines", "--obj"]
    if shutil.which("addr2line"):
        return ["addr2line", "-i", "-e"]
    return None


def user_location(event, modules, program):
    tool = symbolizer()
    if not tool:
        return "?"
    for frame in event["frames"]:
        if modules[frame["module"]] != program:
            continue
        # A return address: the call is the instruction before it.
        address = hex(int(frame["offset"], 16) - 1)
        out = subprocess.run(tool + [program, address], capture_output=True,
                             text=True).stdout
        for file, line in re.findall(r"^([^:\s]+):(\d+)", out, re.M):
            # The system's headers, or those of the root the program was
            # built against (cmake/UnpackedDebianRoot.cmake), and the C++
            # library's (.../lib/gcc/<triple>/<n>/../../../../include/c++/).
            file = os.path.normpath(file)
            if (not file.startswith("/usr/") and "/usr/include/" not in file
                    and "/include/c++/" not in file):
                return "%s:%s" % (os.path.basename(file), line)
        # An out-of-line copy of a LibTorch header function: its caller is
        # the next frame.
    return "none"


def main():
    path = sys.argv[1]
    with open(path) as stream:
        report = json.load(stream)
    for key, kind in [("format", str), ("version", int), ("pid", int),
                      ("program", str), ("libtorch", str), ("end", dict),
                      ("modules", list), ("events", list),
                      ("dropped_events", int), ("problems", list)]:
        expect(isinstance(report.get(key), kind), "no %s %s" % (kind.__name__, key))
    expect(report["format"] == "torchtidy-runtime", "format")
    expect(report["version"] == 1, "version")
    expect(re.fullmatch(r"\d+\.\d+\.\d+.*", report["libtorch"]), "libtorch")
    expect(os.path.isabs(report["program"]), "program is not absolute")
    if "--pid-file" in sys.argv:
        with open(sys.argv[sys.argv.index("--pid-file") + 1]) as stream:
            expect(int(stream.read()) == report["pid"], "pid is not the program's")

    modules = {}
    for index, module in enumerate(report["modules"]):
        expect(module.get("id") == index, "module ids are not 0, 1, ...")
        expect(isinstance(module.get("path"), str), "module path")
        modules[index] = module["path"]

    end = report["end"]
    how = end.get("how")
    if how == "exit":
        expect(isinstance(end.get("code"), int), "exit code")
        print("end exit %d" % end["code"])
    elif how == "exception":
        expect(isinstance(end.get("what"), str), "exception what")
        print("end exception " + end["what"])
    elif how == "signal":
        expect(isinstance(end.get("signal"), int), "signal number")
        print("end signal %d" % end["signal"])
    else:
        expect(how == "running", "end.how %r" % how)
        print("end running")

    for event in report["events"]:
        expect(event.get("kind") in ("mixed_device", "sync",
                                     "non_blocking_unpinned", "graph_growth",
                                     "repeated_transfer"),
               "event kind %r" % event.get("kind"))
        expect(isinstance(event.get("op"), str), "event op")
        expect(isinstance(event.get("count"), int) and event["count"] > 0,
               "event count")
        operands = []
        for operand in event.get("operands"):
            expect(isinstance(operand.get("device"), str), "operand device")
            expect(isinstance(operand.get("dtype"), str), "operand dtype")
            expect(all(isinstance(n, int) for n in operand.get("shape")),
                   "operand shape")
            operands.append("%s:%s[%s]" % (operand["device"], operand["dtype"],
                                           ",".join(map(str, operand["shape"]))))
        expect(event.get("frames"), "an event without frames")
        for frame in event["frames"]:
            expect(frame.get("module") in modules, "frame module")
            expect(re.fullmatch(r"0x[0-9a-f]+", frame.get("offset", "")),
                   "frame offset %r" % frame.get("offset"))
        print("event %s %s count=%d operands=%s at=%s frames=%d" % (
            event["kind"], event["op"], event["count"], ",".join(operands),
            user_location(event, modules, report["program"]),
            len(event["frames"])))
        if event["kind"] == "graph_growth":
            depth = event.get("depth", {})
            expect(isinstance(depth.get("first"), int), "depth.first")
            expect(isinstance(depth.get("last"), int), "depth.last")
            expect(isinstance(event.get("iterations"), int), "iterations")
            rate = event.get("growth_per_iteration")
            expect(isinstance(rate, (int, float)), "growth_per_iteration")
            print("growth first=%d last=%d iterations=%d per_iteration=%.1f" % (
                depth["first"], depth["last"], event["iterations"], rate))

    print("dropped %d" % report["dropped_events"])
    for problem in report["problems"]:
        expect(isinstance(problem, str), "problem")
        print("problem " + problem)


if __name__ == "__main__":
    main()
