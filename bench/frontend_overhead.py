#!/usr/bin/env python3
"""Cost of linting, per front-end, against what the build pays anyway.

Measured side by side in one run (interleaved, median of --repeat runs) on
real LibTorch translation units, so the ratios hold on a noisy machine:

  torchtidy            / clang++ -fsyntax-only
  clang-tidy + module  / clang-tidy with one cheap built-in check (clang-tidy
                         refuses to run with no check at all)
  clang++ -fplugin     / clang++ (same flags)
  torchtidy, warm cache / torchtidy, cold cache (all TUs of a database)
  torchtidy -j2        / torchtidy -j1 (all TUs, no cache; wall time)

Usage: bench/frontend_overhead.py [--build build/llvm-22] [--repeat 3] [files...]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_FILES = [
    "examples/train_mnist.cpp",
    "test/lit/mixed-device-operands/positives.cpp",
    "test/lit/missing-target-migration/training-loop.cpp",
    "test/lit/graph-retaining-accumulation/positives.cpp",
]


def timed(cmd):
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def ratio_row(name, measured, baseline, repeat, files):
    """Medians per file of interleaved runs, summed over files."""
    m_total = b_total = 0.0
    for f in files:
        m_runs, b_runs = [], []
        for _ in range(repeat):  # interleaved: noise hits both alike
            m_runs.append(measured(f))
            b_runs.append(baseline(f))
        m_total += statistics.median(m_runs)
        b_total += statistics.median(b_runs)
    print(f"{name:48} {m_total:10.2f} {b_total:10.2f} {m_total / b_total:7.3f}", flush=True)


def write_database(directory, files, flags):
    entries = [{"directory": ROOT, "file": f,
                "arguments": ["clang++"] + flags + ["-c", f]} for f in files]
    with open(os.path.join(directory, "compile_commands.json"), "w") as out:
        json.dump(entries, out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build", "llvm-22"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()

    torchtidy = os.path.join(args.build, "bin", "torchtidy")
    module = subprocess.check_output([torchtidy, "--print-plugin-path"], text=True).strip()
    plugin = subprocess.check_output([torchtidy, "--print-plugin-path=clang"], text=True).strip()
    major = subprocess.check_output([torchtidy, "--version"], text=True).split("LLVM ")[1].rstrip(")\n")
    bindir = f"/usr/lib/llvm-{major}/bin"
    pch = os.path.join(args.build, "test", "lit", "torch.pch")
    flags = ["-std=c++17", "-isystem", "/usr/include/torch/csrc/api/include"]
    if os.path.exists(pch):
        flags += ["-include-pch", pch]
    files = [os.path.join(ROOT, f) for f in (args.files or DEFAULT_FILES)]

    pairs = {
        "torchtidy / clang++ -fsyntax-only": (
            lambda f: [torchtidy, f, "--"] + flags,
            lambda f: [f"{bindir}/clang++", "-fsyntax-only"] + flags + [f]),
        "clang-tidy libtorch-* / clang-tidy, 1 cheap check": (
            lambda f: [f"{bindir}/clang-tidy", f"--load={module}", "--checks=-*,libtorch-*", f, "--"] + flags,
            lambda f: [f"{bindir}/clang-tidy", f"--load={module}", "--checks=-*,misc-unused-alias-decls", f, "--"] + flags),
        "clang++ -fplugin / clang++": (
            lambda f: [f"{bindir}/clang++", f"-fplugin={plugin}", "-fsyntax-only"] + flags + [f],
            lambda f: [f"{bindir}/clang++", "-fsyntax-only"] + flags + [f]),
    }
    print(f"LLVM {major}, {len(files)} TUs, median of {args.repeat}, PCH: {os.path.exists(pch)}")
    print(f"{'pair':48} {'measured s':>10} {'baseline s':>10} {'ratio':>7}")
    for name, (measured, baseline) in pairs.items():
        ratio_row(name, lambda f: timed(measured(f)), lambda f: timed(baseline(f)),
                  args.repeat, files)

    # Whole-database pairs: one "file" standing for the project.
    with tempfile.TemporaryDirectory() as build:
        write_database(build, files, flags)
        cache = os.path.join(build, "cache")
        lint = [torchtidy, "-p", build, f"--cache-dir={cache}"]

        def cold(_):
            shutil.rmtree(cache, ignore_errors=True)
            return timed(lint)

        def warm(_):
            subprocess.run(lint, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            return timed(lint)

        ratio_row("torchtidy warm cache / cold cache", warm, cold, args.repeat, ["project"])
        ratio_row("torchtidy -j2 / -j1 (wall)",
                  lambda _: timed([torchtidy, "-p", build, "--no-cache", "-j", "2"]),
                  lambda _: timed([torchtidy, "-p", build, "--no-cache", "-j", "1"]),
                  args.repeat, ["project"])


if __name__ == "__main__":
    sys.exit(main())
