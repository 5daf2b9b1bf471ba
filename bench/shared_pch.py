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
               cold, the one PCH build runs on one core). Against what the
               machine gives: the same per-file work as N independent
               torchtidy -j 1 processes, an N-th of the files each, run one
               after another and side by side (a 2-core virtual machine
               need not run two processes twice as fast), and the share of
               the cold run that is the PCH build (one core).
               The torchtidy runs compared take turns, three rounds, and
               each keeps its fastest.

  --real       public projects of bench/realworld.list, each as its
               compile_commands.json would be (realworld.py's flags: the
               unit's own folders as -I, the project's other header
               folders after the system's, LibTorch's and third-party
               headers as -isystem; one build folder per target, the
               first folder of the unit's path): per project, the share of
               units parsed against a PCH (--cache-stats), cold torchtidy
               -p against run-clang-tidy (target <= 0.3), warm against
               cold (<= 0.05), and the output byte-identical with
               --no-shared-pch (exit 1 when it is not). --sources holds
               the repositories as realworld.py takes them; --projects
               names them (default: three layouts, see DEFAULT_PROJECTS);
               --limit caps the units per project (default 12).
               --share-only: only the share of units parsed against a
               PCH, one cold run per project (--projects all: every
               project of the list); with --identical, each project is
               also run once with --no-cache --no-shared-pch, and its
               output and exit code must be byte-identical (exit 1 when
               one is not). With --real, --identical checks the projects,
               not the lit inputs.

usage: shared_pch.py [--identical] [--speed] [--real] [--build DIR] [-j N]
                     [--include-dir DIR] [--limit N] [--sources DIR]
                     [--projects owner/name ...] [--baseline TORCHTIDY]
"""
import argparse
import difflib
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROUNDS = 3  # of each torchtidy run compared (not run-clang-tidy's)
# Three layouts (issue 36): tutorials whose units include their own header
# first, a CMake project with include/ and src/ folders per target, and a
# model zoo whose units include many of the project's headers.
DEFAULT_PROJECTS = ("prabhuomkar/pytorch-cpp", "Omegastick/pytorch-cpp-rl",
                    "AllentDan/LibtorchSegmentation")


def write_project(directory, sources, include_dir, build_directory=None):
    """compile_commands.json in directory; the commands run in
    build_directory (the same for the parts of one project: the PCH is
    keyed by it)."""
    os.makedirs(directory, exist_ok=True)
    commands = [{"directory": build_directory or directory, "file": source,
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
    # This machine's speed drifts within a minute: the runs that are
    # compared take turns, ROUNDS times, and each keeps its fastest (the
    # one least slowed by the rest of the machine).
    cold_time = one_time = float("inf")
    for round_index in range(ROUNDS):
        seconds, result = torchtidy_run(torchtidy, project, args.j,
                                        "--cache-dir", cache, "--cache-stats")
        if seconds < cold_time:
            cold_time, cold = seconds, result
        if round_index == 0:
            warm_time, warm = torchtidy_run(torchtidy, project, args.j,
                                            "--cache-dir", cache)
        shutil.rmtree(cache)
        seconds, result = torchtidy_run(torchtidy, project, 1,
                                        "--cache-dir", cache)
        if seconds < one_time:
            one_time, one = seconds, result
        if round_index + 1 < ROUNDS:
            shutil.rmtree(cache)
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
    # What the machine gives that phase: the same files, PCH kept, as -j
    # independent processes (no shared memory, no locks), one after
    # another and side by side.
    parts = []
    for index in range(args.j):
        part = os.path.join(scratch, f"part{index}")
        write_project(part, sources[index::args.j], args.include_dir, project)
        parts.append([torchtidy, "-p", part, "-j", "1", "--level=style",
                      "--format=json", "--cache-dir", cache])

    def apart():
        start = time.monotonic()
        for command in parts:
            subprocess.run(command, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        return time.monotonic() - start

    def side_by_side():
        start = time.monotonic()
        running = [subprocess.Popen(command, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
                   for command in parts]
        for process in running:
            process.wait()
        return time.monotonic() - start

    # The same turns for the per-file phase's four runs.
    one_pch_time = n_pch_time = apart_time = side_by_side_time = float("inf")
    for _ in range(ROUNDS):
        forget_results()
        seconds, one_pch = torchtidy_run(torchtidy, project, 1,
                                         "--cache-dir", cache)
        one_pch_time = min(one_pch_time, seconds)
        forget_results()
        seconds, n_pch = torchtidy_run(torchtidy, project, args.j,
                                       "--cache-dir", cache)
        n_pch_time = min(n_pch_time, seconds)
        forget_results()
        apart_time = min(apart_time, apart())
        forget_results()
        side_by_side_time = min(side_by_side_time, side_by_side())
    shutil.rmtree(cache)
    stats = [line for line in cold.stderr.splitlines()
             if line.startswith("torchtidy: shared prefix")]
    rows = [
        (f"run-clang-tidy -j {args.j} (module)", tidy_time, tidy.returncode),
        (f"torchtidy -p -j {args.j}, cold (best of {ROUNDS})", cold_time,
         cold.returncode),
        (f"torchtidy -p -j {args.j}, warm", warm_time, warm.returncode),
        (f"torchtidy -p -j 1, cold (best of {ROUNDS})", one_time,
         one.returncode),
        (f"torchtidy -p -j 1, PCH kept (best of {ROUNDS})", one_pch_time,
         one_pch.returncode),
        (f"torchtidy -p -j {args.j}, PCH kept (best of {ROUNDS})",
         n_pch_time, n_pch.returncode),
        (f"{args.j} parts -j 1, one after another (best of {ROUNDS})",
         apart_time, 0),
        (f"{args.j} parts -j 1, side by side (best of {ROUNDS})",
         side_by_side_time, 0),
    ]
    for name, seconds, code in rows:
        print(f"  {name:<50} {seconds:7.1f} s  (exit {code})")
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
    # N processes side by side against one after another: what this
    # machine gives N cores' worth of independent work. Threads sharing one
    # process's PCH pages may do better; it is the yardstick, not a bound.
    ceiling = apart_time / side_by_side_time
    print(f"  the machine, {args.j} processes:        {ceiling:.2f} "
          f"(the parts side by side against one after another)")
    print(f"  -j {args.j}, PCH kept, against that:     "
          f"{one_pch_time / n_pch_time / ceiling:.2f}")
    # Cold, one worker builds the PCH while the others wait for it.
    print(f"  cold, the PCH build:             about "
          f"{max(0.0, one_time - one_pch_time):.1f} s of the -j 1 run's "
          f"{one_time:.1f} s (cold less PCH kept), on one core")
    return (cold.stdout == warm.stdout == one.stdout == one_pch.stdout
            == n_pch.stdout)


def real_project(args, repo, scratch):
    """A public project's compile_commands.json in scratch; its units."""
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    import realworld
    entries = {entry[0]: entry for entry in
               realworld.read_list(os.path.join(ROOT, "bench",
                                                "realworld.list"))}
    if repo not in entries:
        print(f"{repo}: not in bench/realworld.list")
        return None, []
    _, commit, folders, _ = entries[repo]
    work = os.path.join(scratch, "real")
    tree = realworld.export(repo, commit, folders,
                            os.path.abspath(args.sources), work)
    if tree is None:
        print(f"{repo}: not under {args.sources}")
        return None, []
    units, header_dirs = realworld.translation_units(tree)
    units = units[:args.limit or 12]
    system = ["-isystem", args.include_dir]
    for extra in realworld.THIRD_PARTY_INCLUDE_DIRS:
        if os.path.isdir(extra):
            system += ["-isystem", extra]
    commands = []
    for unit in units:
        target = os.path.relpath(unit, tree).split(os.sep)[0]
        build = os.path.join(tree, "build", target)
        os.makedirs(build, exist_ok=True)
        commands.append({"directory": build, "file": unit, "arguments": [
            "/usr/bin/c++", "-std=c++17", *system,
            *realworld.include_flags(unit, tree, header_dirs), "-o",
            os.path.basename(unit) + ".o", "-c", unit]})
    with open(os.path.join(tree, "compile_commands.json"), "w") as out:
        json.dump(commands, out, indent=1)
    return tree, units


def sharing_line(result):
    lines = [line for line in result.stderr.splitlines()
             if line.startswith("torchtidy: shared prefix")]
    return lines[0] if lines else "no sharing line"


def measure_real(args, torchtidy, scratch):
    run_clang_tidy = shutil.which(f"run-clang-tidy-{args.llvm}") or \
        shutil.which("run-clang-tidy")
    clang_tidy = shutil.which(f"clang-tidy-{args.llvm}")
    plugin = subprocess.run([torchtidy, "--print-plugin-path"],
                            stdout=subprocess.PIPE, text=True,
                            check=True).stdout.strip()
    ok = True
    projects = args.projects
    if projects == ["all"]:
        sys.path.insert(0, os.path.join(ROOT, "bench"))
        import realworld
        projects = [entry[0] for entry in realworld.read_list(
            os.path.join(ROOT, "bench", "realworld.list"))]
    shared_units = total_units = identical = compared = 0
    for repo in projects:
        tree, units = real_project(args, repo, scratch)
        if tree and not units:
            print(f"real: {repo}: no unit includes LibTorch")
        if not tree or not units:
            ok = False
            continue
        print(f"real: {repo}, {len(units)} units, -j {args.j}")
        cache = os.path.join(scratch, "real-cache")
        shutil.rmtree(cache, ignore_errors=True)
        if args.share_only:
            # Each unit once (not again for other units'
            # facts), cold: how many parsed against a PCH.
            _, cold = torchtidy_run(torchtidy, tree, args.j, "--cache-dir",
                                    cache, "--cache-stats",
                                    "--no-project-facts")
            line = sharing_line(cold)
            print(f"  {line}")
            match = re.search(r"(\d+) file\(s\) parsed against", line)
            shared_units += int(match.group(1)) if match else 0
            total_units += len(units)
            shutil.rmtree(cache, ignore_errors=True)
            if args.identical:
                # The same flags, every unit parsed whole.
                _, whole = torchtidy_run(torchtidy, tree, args.j,
                                         "--no-cache", "--no-shared-pch",
                                         "--no-project-facts")
                # Both crashing alike (a signal, no output) is no pass.
                same = (whole.stdout == cold.stdout and
                        whole.returncode == cold.returncode and
                        cold.returncode >= 0)
                print(f"  byte-identical with --no-shared-pch: "
                      f"{'yes' if same else 'NO'}")
                if not same:
                    print(f"  exit {whole.returncode} whole, "
                          f"{cold.returncode} shared")
                    diff = difflib.unified_diff(whole.stdout.splitlines(),
                                                cold.stdout.splitlines(),
                                                "whole", "shared",
                                                lineterm="")
                    print("\n".join(list(diff)[:40]))
                identical += same
                compared += 1
                ok &= same
            continue
        if args.baseline:
            base_time, base = torchtidy_run(args.baseline, tree, args.j,
                                            "--cache-dir", cache,
                                            "--cache-stats")
            shutil.rmtree(cache, ignore_errors=True)
            print(f"  baseline, cold:          {base_time:7.1f} s; "
                  f"{sharing_line(base)}")
        cold_time, cold = torchtidy_run(torchtidy, tree, args.j,
                                        "--cache-dir", cache, "--cache-stats")
        warm_time, warm = torchtidy_run(torchtidy, tree, args.j,
                                        "--cache-dir", cache)
        shutil.rmtree(cache, ignore_errors=True)
        whole_time, whole = torchtidy_run(torchtidy, tree, args.j,
                                          "--no-cache", "--no-shared-pch")
        tidy_time = None
        if run_clang_tidy and clang_tidy:
            tidy_time, _ = timed(
                [run_clang_tidy, "-quiet", "-clang-tidy-binary", clang_tidy,
                 "-load", plugin, "-checks=-*,libtorch-*", "-p", tree,
                 # Its file arguments are regular expressions ('+' in
                 # owner+name).
                 "-j", str(args.j), *[re.escape(unit) for unit in units]])
        print(f"  torchtidy -p, cold:      {cold_time:7.1f} s; "
              f"{sharing_line(cold)}")
        print(f"  torchtidy -p, warm:      {warm_time:7.1f} s")
        print(f"  --no-shared-pch:         {whole_time:7.1f} s")
        if tidy_time:
            print(f"  run-clang-tidy (module): {tidy_time:7.1f} s")
            print(f"  cold / run-clang-tidy:   {cold_time / tidy_time:.2f} "
                  "(target <= 0.3)")
        print(f"  warm / cold:             {warm_time / cold_time:.3f} "
              "(target <= 0.05)")
        same = (whole.stdout == cold.stdout == warm.stdout and
                whole.returncode == cold.returncode)
        print(f"  byte-identical with --no-shared-pch: "
              f"{'yes' if same else 'NO'}")
        if not same:
            diff = difflib.unified_diff(whole.stdout.splitlines(),
                                        cold.stdout.splitlines(), "whole",
                                        "shared", lineterm="")
            print("\n".join(list(diff)[:40]))
        ok &= same
    if args.share_only and total_units:
        print(f"real: {shared_units} of {total_units} units parsed against "
              f"a PCH ({shared_units / total_units:.0%}; target >= 80%)")
    if args.share_only and args.identical:
        print(f"real: {identical} of {compared} projects byte-identical "
              "with --no-shared-pch")
    return ok


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
    parser.add_argument("--real", action="store_true")
    parser.add_argument("--sources", default="/work/.mirror",
                        help="the repositories, as realworld.py takes them")
    parser.add_argument("--projects", nargs="*", default=DEFAULT_PROJECTS)
    parser.add_argument("--share-only", action="store_true",
                        help="--real: only the share of units parsed "
                        "against a PCH, cold (--projects all: the list)")
    parser.add_argument("--baseline", default="",
                        help="another torchtidy, run cold first (--real)")
    args = parser.parse_args()
    if not args.identical and not args.speed and not args.real:
        args.identical = args.speed = True
    torchtidy = os.path.join(args.build, "bin", "torchtidy")
    if not os.path.exists(torchtidy):
        print(f"'{torchtidy}' is missing; build {args.build} first")
        return 2
    ok = True
    with tempfile.TemporaryDirectory(prefix="torchtidy-shared-pch-") as scratch:
        if args.identical and not args.real:
            ok &= check_identical(args, torchtidy, scratch)
        if args.speed:
            ok &= measure_speed(args, torchtidy, scratch)
        if args.real:
            ok &= measure_real(args, torchtidy, scratch)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
