#!/usr/bin/env python3
"""Shared prefix PCH: the same findings, and what it saves.

Builds a scratch project whose compile_commands.json lists the in-house
inputs with plain LibTorch flags (no test PCH), as a user's project would,
and runs torchtidy over it.

  --identical  every lit input (test/lit/**/*.cpp) and the in-house corpus
               (bench/corpus): torchtidy -p --no-cache, with and without
               --no-shared-pch, must print byte-identical JSON (findings and
               errors, every level). Exit 1 when it does not.
  --speed      the corpus as one project, each ratio measured in this run:
               cold torchtidy -p against run-clang-tidy with the module on the
               same files and -j (target <= 0.3), warm against cold
               (<= 0.05), and -j1 against -j N (speed-up >= 1.8 for -j 2),
               cold and with the project's PCH kept (the per-file phase:
               cold, the one PCH build runs on one core).

usage: shared_pch.py [--identical] [--speed] [--build DIR] [-j N]
                     [--include-dir DIR] [--limit N]
"""
import argparse
import difflib
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write_project(directory, sources, include_dir):
    os.makedirs(directory, exist_ok=True)
    commands = [{"directory": directory, "file": source,
                 "arguments": ["/usr/bin/c++", "-std=c++17", "-isystem",
                               include_dir, "-c", source]}
                for source in sources]
    with open(os.path.join(directory, "compile_commands.json"), "w") as out:
        json.dump(commands, out, indent=1)


def timed(command, **kwargs):
    start = time.monotonic()
    done = subprocess.run(command, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, **kwargs)
    return time.monotonic() - start, done


def torchtidy_run(torchtidy, project, jobs, *extra):
    return timed([torchtidy, "-p", project, "-j", str(jobs), "--level=style",
                  "--format=json", *extra])


def check_identical(args, torchtidy, scratch):
    sources = sorted(glob.glob(os.path.join(ROOT, "test", "lit", "**", "*.cpp"),
                               recursive=True) +
                     glob.glob(os.path.join(ROOT, "bench", "corpus", "*.cpp")))
    if args.limit:
        sources = sources[:args.limit]
    project = os.path.join(scratch, "identical")
    write_project(project, sources, args.include_dir)
    whole_time, whole = torchtidy_run(torchtidy, project, args.j, "--no-cache",
                                      "--no-shared-pch")
    shared_time, shared = torchtidy_run(torchtidy, project, args.j,
                                        "--no-cache", "--cache-stats")
    stats = [line for line in shared.stderr.splitlines()
             if line.startswith("torchtidy: shared prefix")]
    findings = len(json.loads(whole.stdout)["findings"]) if whole.stdout else 0
    print(f"identical: {len(sources)} files (lit inputs and corpus), "
          f"-j {args.j}, {findings} findings and errors")
    print(f"  whole:  {whole_time:7.1f} s, exit {whole.returncode}")
    print(f"  shared: {shared_time:7.1f} s, exit {shared.returncode}; "
          f"{stats[0] if stats else 'no sharing line'}")
    print(f"  shared / whole: {shared_time / whole_time:.2f}")
    same = (whole.stdout == shared.stdout and
            whole.returncode == shared.returncode)
    if not same:
        diff = difflib.unified_diff(whole.stdout.splitlines(),
                                    shared.stdout.splitlines(), "whole",
                                    "shared", lineterm="")
        print("\n".join(list(diff)[:80]))
    print(f"  byte-identical: {'yes' if same else 'NO'}")
    return same


def measure_speed(args, torchtidy, scratch):
    sources = sorted(glob.glob(os.path.join(ROOT, "bench", "corpus", "*.cpp")))
    if args.limit:
        sources = sources[:args.limit]
    project = os.path.join(scratch, "speed")
    write_project(project, sources, args.include_dir)
    plugin = subprocess.run([torchtidy, "--print-plugin-path"],
                            stdout=subprocess.PIPE, text=True,
                            check=True).stdout.strip()
    run_clang_tidy = shutil.which(f"run-clang-tidy-{args.llvm}") or \
        shutil.which("run-clang-tidy")
    clang_tidy = shutil.which(f"clang-tidy-{args.llvm}")
    if not run_clang_tidy or not clang_tidy:
        print(f"run-clang-tidy-{args.llvm} or clang-tidy-{args.llvm} missing")
        return False
    print(f"speed: {len(sources)} files of bench/corpus as one project, "
          f"-j {args.j}")
    tidy_time, tidy = timed(
        [run_clang_tidy, "-quiet", "-clang-tidy-binary", clang_tidy,
         "-load", plugin, "-checks=-*,libtorch-*", "-p", project,
         "-j", str(args.j), *sources])
    cache = os.path.join(scratch, "cache")
    cold_time, cold = torchtidy_run(torchtidy, project, args.j,
                                    "--cache-dir", cache, "--cache-stats")
    warm_time, warm = torchtidy_run(torchtidy, project, args.j,
                                    "--cache-dir", cache)
    shutil.rmtree(cache)
    one_time, one = torchtidy_run(torchtidy, project, 1, "--cache-dir", cache)
    # The per-file phase alone: the project's PCH kept, every result gone.
    # Cold, building that PCH is one parse of LibTorch on one core, so it
    # bounds what a second worker can win (Amdahl); this is what it wins
    # on the rest.
    def forget_results():
        for entry in os.listdir(cache):
            if entry != "pch":
                path = os.path.join(cache, entry)
                if os.path.isdir(path):
                    shutil.rmtree(path)
                else:
                    os.remove(path)
    forget_results()
    one_pch_time, one_pch = torchtidy_run(torchtidy, project, 1,
                                          "--cache-dir", cache)
    forget_results()
    n_pch_time, n_pch = torchtidy_run(torchtidy, project, args.j,
                                      "--cache-dir", cache)
    shutil.rmtree(cache)
    stats = [line for line in cold.stderr.splitlines()
             if line.startswith("torchtidy: shared prefix")]
    rows = [
        (f"run-clang-tidy -j {args.j} (module)", tidy_time, tidy.returncode),
        (f"torchtidy -p -j {args.j}, cold", cold_time, cold.returncode),
        (f"torchtidy -p -j {args.j}, warm", warm_time, warm.returncode),
        ("torchtidy -p -j 1, cold", one_time, one.returncode),
        ("torchtidy -p -j 1, PCH kept", one_pch_time, one_pch.returncode),
        (f"torchtidy -p -j {args.j}, PCH kept", n_pch_time,
         n_pch.returncode),
    ]
    for name, seconds, code in rows:
        print(f"  {name:<34} {seconds:7.1f} s  (exit {code})")
    if stats:
        print(f"  {stats[0]}")
    print(f"  cold torchtidy / run-clang-tidy: "
          f"{cold_time / tidy_time:.2f} (target <= 0.3)")
    print(f"  warm / cold:                     "
          f"{warm_time / cold_time:.3f} (target <= 0.05)")
    print(f"  -j 1 / -j {args.j} (speed-up):         "
          f"{one_time / cold_time:.2f} (target >= 1.8 for -j 2)")
    print(f"  the same, PCH kept:              "
          f"{one_pch_time / n_pch_time:.2f}")
    return (cold.stdout == warm.stdout == one.stdout == one_pch.stdout
            == n_pch.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build",
                                                        "llvm-22"))
    parser.add_argument("--llvm", default="22",
                        help="LLVM major version of --build (run-clang-tidy)")
    parser.add_argument("--include-dir",
                        default="/usr/include/torch/csrc/api/include")
    parser.add_argument("-j", type=int, default=2)
    parser.add_argument("--limit", type=int, default=0,
                        help="only the first N files (a quick look)")
    parser.add_argument("--identical", action="store_true")
    parser.add_argument("--speed", action="store_true")
    args = parser.parse_args()
    if not args.identical and not args.speed:
        args.identical = args.speed = True
    torchtidy = os.path.join(args.build, "bin", "torchtidy")
    if not os.path.exists(torchtidy):
        print(f"'{torchtidy}' is missing; build {args.build} first")
        return 2
    ok = True
    with tempfile.TemporaryDirectory(prefix="torchtidy-shared-pch-") as scratch:
        if args.identical:
            ok &= check_identical(args, torchtidy, scratch)
        if args.speed:
            ok &= measure_speed(args, torchtidy, scratch)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
