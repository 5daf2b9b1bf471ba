#!/usr/bin/env python3
"""Findings of two torchtidy binaries on the accuracy corpus, compared.

A change meant to leave behaviour alone (a refactoring) must give
byte-identical output; a change to the analysis must be able to say which
findings it added and which it removed. This lints bench/corpus/*.cpp with
each binary at every level (--level=style --format=json, each file on its
own: --no-project-facts, no cache) and prints whether the two outputs are
byte-identical, then every finding only one of them has.

Keep a copy of the binary before the change (it links LLVM dynamically, so
a copy runs): cp build/llvm-22/bin/torchtidy /tmp/torchtidy-before

Exit: 0 identical, 1 different, 2 on a usage error or a failed run.

Usage: bench/compare_findings.py BEFORE AFTER [--pch PCH] [-j N]
"""
import argparse
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def lint(binary, files, flags, jobs):
    done = subprocess.run([binary, "--level=style", "--format=json",
                           "--no-cache", "--no-project-facts", "-j", str(jobs),
                           *files, "--", *flags],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)
    if done.returncode not in (0, 1) or not done.stdout.strip():
        print(f"compare_findings: {binary} failed ({done.returncode}): "
              f"{done.stderr.strip()[-500:]}", file=sys.stderr)
        sys.exit(2)
    return done.stdout


def key(finding):
    return (os.path.relpath(finding["file"], ROOT), finding["line"],
            finding["column"], finding["check"], finding["message"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--pch", default=os.path.join(
        ROOT, "build", "llvm-22", "test", "lit", "torch.pch"))
    parser.add_argument("--include-dir",
                        default="/usr/include/torch/csrc/api/include")
    parser.add_argument("-j", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    files = sorted(glob.glob(os.path.join(ROOT, "bench", "corpus", "*.cpp")))
    flags = ["-std=c++17", "-isystem", args.include_dir]
    if os.path.exists(args.pch):
        flags += ["-include-pch", args.pch]
    outputs = [lint(binary, files, flags, args.j)
               for binary in (args.before, args.after)]
    findings = [{key(f) for f in json.loads(text)["findings"]}
                for text in outputs]
    print(f"{len(files)} files; findings: {len(findings[0])} before, "
          f"{len(findings[1])} after")
    print(f"byte-identical: {'yes' if outputs[0] == outputs[1] else 'NO'}")
    for sign, only in (("-", findings[0] - findings[1]),
                       ("+", findings[1] - findings[0])):
        for path, line, column, check, message in sorted(only):
            print(f"{sign} {path}:{line}:{column} [{check}] {message}")
    return 0 if outputs[0] == outputs[1] else 1


if __name__ == "__main__":
    sys.exit(main())
