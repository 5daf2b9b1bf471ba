#!/usr/bin/env python3
"""Whole-project facts: what analysing a project's files together costs.

Each ratio is measured in this run (these machines are noisy; no timed test).

  --project  a LibTorch project of several files (test/lit/project/Inputs/
             training, copied to a scratch directory with plain LibTorch
             flags, as a user's project): cold torchtidy -p with project
             facts against the same with --no-project-facts (target <= 1.3),
             warm against cold, and after an edit of one file that changes
             none of its facts (only that file is linted) and one that moves
             its functions (its users are linted again).
  --scale    generated projects of N small files without LibTorch (each
             defines a function that calls the previous file's, then the
             next file's: a chain that path order lints backwards): the
             facts' own cost, with and without them, and time and peak
             memory per file as N grows (linear: per-file figures flat).

usage: project_facts.py [--project] [--scale] [--build DIR] [-j N]
                        [--include-dir DIR] [--sizes 250,500,1000]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROJECT = os.path.join(ROOT, "test", "lit", "project", "Inputs", "training")


def run(torchtidy, build, jobs, *extra):
    """(seconds, peak RSS in MiB, stats line) of one torchtidy run."""
    command = ["/usr/bin/time", "-f", "%M", torchtidy, "-p", build, "-j",
               str(jobs), "--level=style", "--cache-stats", *extra]
    start = time.monotonic()
    done = subprocess.run(command, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    seconds = time.monotonic() - start
    if done.returncode not in (0, 1):
        sys.exit(f"torchtidy failed ({done.returncode}): {done.stderr[-800:]}")
    lines = done.stderr.strip().splitlines()
    stats = next((l for l in lines if l.startswith("torchtidy: project:")),
                 "")
    return seconds, int(lines[-1]) / 1024, stats, done.stdout


def write_database(directory, sources, flags):
    with open(os.path.join(directory, "compile_commands.json"), "w") as out:
        json.dump([{"directory": os.path.dirname(s), "file": s,
                    "arguments": ["/usr/bin/c++", *flags, "-c", s]}
                   for s in sources], out, indent=1)


def project(args, torchtidy, scratch):
    src = os.path.join(scratch, "project")
    shutil.copytree(PROJECT, src)
    sources = sorted(os.path.join(src, f) for f in os.listdir(src)
                     if f.endswith(".cpp"))
    write_database(src, sources, ["-std=c++17", "-isystem", args.include_dir])
    cache = os.path.join(scratch, "cache")
    plain, _, plain_stats, plain_out = run(torchtidy, src, args.j,
                                           "--no-cache", "--no-project-facts")
    cold, _, cold_stats, cold_out = run(torchtidy, src, args.j,
                                        f"--cache-dir={cache}")
    warm, _, warm_stats, _ = run(torchtidy, src, args.j, f"--cache-dir={cache}")
    with open(os.path.join(src, "utils.cpp"), "a") as f:
        f.write("// an edit that moves nothing\n")
    edit, _, edit_stats, _ = run(torchtidy, src, args.j, f"--cache-dir={cache}")
    with open(os.path.join(src, "utils.cpp")) as f:
        text = f.read()
    with open(os.path.join(src, "utils.cpp"), "w") as f:
        f.write("// an edit that moves every function down a line\n" + text)
    moved, _, moved_stats, _ = run(torchtidy, src, args.j,
                                   f"--cache-dir={cache}")
    found = lambda out: len(re.findall(r": warning: ", out))
    print(f"project: {len(sources)} files of {PROJECT} (LibTorch 1.13, "
          f"-j {args.j})")
    print(f"{'run':52} {'time':>8} {'ratio':>8}  what was linted")
    print(f"{'--no-project-facts, cold':52} {plain:7.1f}s {'':>8}  "
          f"{found(plain_out)} warnings")
    print(f"{'project facts, cold':52} {cold:7.1f}s {cold / plain:7.2f}x  "
          f"{cold_stats[len('torchtidy: project: '):]}; "
          f"{found(cold_out)} warnings (target ratio <= 1.3)")
    for name, seconds, stats in (
            ("warm", warm, warm_stats),
            ("after an edit that changes no fact", edit, edit_stats),
            ("after an edit that moves utils.cpp's functions", moved,
             moved_stats)):
        print(f"{name:52} {seconds:7.1f}s {seconds / cold:7.2f}x  "
              f"{stats[len('torchtidy: project: '):]} (ratio: of cold)")


def scale(args, torchtidy, scratch):
    # Files are first linted in path order. Calling the previous file's
    # function, most files find its fact already there; calling the next
    # file's, none does, and every file but the last is linted again once
    # the one it calls has settled: the worst case of a chain.
    for order, step in (("previous", -1), ("next", +1)):
        print(f"scale: generated projects, one function a file calling the "
              f"{order} file's (-j {args.j})")
        print(f"{'files':>6} {'facts':>9} {'no facts':>9} {'ratio':>6} "
              f"{'ms/file':>8} {'peak MiB':>9}  linted")
        for size in [int(n) for n in args.sizes.split(",")]:
            src = os.path.join(scratch, f"gen-{order}-{size}")
            write_chain(src, size, step)
            facts, memory, stats, _ = run(torchtidy, src, args.j,
                                          "--no-cache")
            plain, _, _, _ = run(torchtidy, src, args.j, "--no-cache",
                                 "--no-project-facts")
            print(f"{size:6} {facts:8.1f}s {plain:8.1f}s "
                  f"{facts / plain:5.2f}x {1000 * facts / size:8.1f} "
                  f"{memory:9.0f}  {stats[len('torchtidy: project: '):]}")


def write_chain(src, size, step):
    """size files in src and their database; file i's function calls file
    i+step's (none past either end)."""
    os.makedirs(src)
    # Each file the same size whatever N: it declares what it calls.
    with open(os.path.join(src, "api.h"), "w") as f:
        f.write("#pragma once\nstruct Tensor { float *data; int n; };\n")
    sources = []
    for i in range(size):
        path = os.path.join(src, f"unit{i:05d}.cpp")
        callee = i + step
        has_callee = 0 <= callee < size
        declaration = (f"Tensor step{callee}(const Tensor &t, int k);\n"
                       if has_callee else "")
        call = f"step{callee}(t, k - 1)" if has_callee else "t"
        with open(path, "w") as f:
            f.write(f'#include "api.h"\n{declaration}Tensor step{i}('
                    f'const Tensor &t, int k) {{\n  if (k <= 0) return '
                    f't;\n  Tensor r = {call};\n  r.n += {i};\n  '
                    f'return r;\n}}\n')
        sources.append(path)
    write_database(src, sources, ["-std=c++17"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--project", action="store_true")
    parser.add_argument("--scale", action="store_true")
    parser.add_argument("--build", default=os.path.join(ROOT, "build",
                                                         "llvm-22"))
    parser.add_argument("-j", type=int, default=2)
    parser.add_argument("--include-dir",
                        default="/usr/include/torch/csrc/api/include")
    parser.add_argument("--sizes", default="250,500,1000")
    args = parser.parse_args()
    if not (args.project or args.scale):
        parser.error("nothing to do: give --project and/or --scale")
    torchtidy = os.path.join(args.build, "bin", "torchtidy")
    if not os.path.exists(torchtidy):
        sys.exit(f"{torchtidy} is missing: build first (scripts/build.sh)")
    scratch = tempfile.mkdtemp(prefix="torchtidy-project-facts-")
    try:
        if args.project:
            project(args, torchtidy, scratch)
        if args.scale:
            scale(args, torchtidy, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
