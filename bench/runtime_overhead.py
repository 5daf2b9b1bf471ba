#!/usr/bin/env python3
"""Cost of running a LibTorch program under the runtime shim.

Times examples/runtime/train_correct (a small training loop with data-loader
worker threads) with LD_PRELOAD=libtorchtidy_rt.so against the same program
without it, side by side in one run (interleaved, median of --repeat runs
after one warm-up run of each), so the ratio holds on a noisy machine:

  train_correct cpu  under the shim / without   target <= 1.3
  train_correct cuda under the shim / without   target <= 1.1 (--device cuda)

Each pair must also print the same output and exit with the same status: the
shim only observes. Exits 1 when a ratio is over its target or the outputs
differ, 2 when the program or the shim is missing.

Usage: bench/runtime_overhead.py [--build build/llvm-22] [--program P]
                                 [--shim S] [--repeat 3] [--device cpu|cuda]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGETS = {"cpu": 1.3, "cuda": 1.1}


def run(cmd, env):
    """Wall time, stdout and exit status of one run."""
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True)
    return time.perf_counter() - start, done.stdout, done.returncode


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build", "llvm-22"),
                        help="build directory the defaults of --program and --shim are in")
    parser.add_argument("--program", help="the built train_correct "
                        "(default: <build>/test/runtime/bin/train_correct)")
    parser.add_argument("--shim", help="libtorchtidy_rt.so (default: <build>/lib/libtorchtidy_rt.so)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu",
                        help="cuda: time train_correct cuda as well")
    args = parser.parse_args()

    program = args.program or os.path.join(args.build, "test", "runtime", "bin", "train_correct")
    shim = os.path.abspath(args.shim or os.path.join(args.build, "lib", "libtorchtidy_rt.so"))
    # The dynamic loader only warns about a missing LD_PRELOAD library and
    # runs the program without it: that would time nothing.
    for what, path in (("program", program), ("shim", shim)):
        if not os.path.isfile(path):
            print(f"runtime_overhead.py: error: no {what} at {path}", file=sys.stderr)
            return 2
    devices = ["cpu"] + (["cuda"] if args.device == "cuda" else [])

    failed = False
    with tempfile.TemporaryDirectory() as reports:
        plain = dict(os.environ)
        plain.pop("LD_PRELOAD", None)
        shimmed = dict(plain, LD_PRELOAD=shim,
                       TORCHTIDY_REPORT=os.path.join(reports, "report.json"))
        name = os.path.basename(program)
        print(f"{name}, median of {args.repeat} "
              f"(after 1 warm-up), shim: {shim}")
        print(f"{'program':24} {'shim s':>8} {'plain s':>8} {'ratio':>7} "
              f"{'target':>7}  result")
        for device in devices:
            cmd = [program, device]
            run(cmd, shimmed)  # warm-up: page cache, lazy loading
            run(cmd, plain)
            s_runs, p_runs, same = [], [], True
            for _ in range(args.repeat):  # interleaved: noise hits both alike
                s_time, s_out, s_rc = run(cmd, shimmed)
                p_time, p_out, p_rc = run(cmd, plain)
                s_runs.append(s_time)
                p_runs.append(p_time)
                same &= (s_out, s_rc) == (p_out, p_rc) and p_rc == 0
            s_median, p_median = statistics.median(s_runs), statistics.median(p_runs)
            ratio = s_median / p_median
            if not same:
                result = "OUTPUT DIFFERS (or the program failed)"
            elif ratio > TARGETS[device]:
                result = "OVER TARGET"
            else:
                result = "ok"
            failed |= result != "ok"
            print(f"{name + ' ' + device:24} {s_median:8.2f} {p_median:8.2f} "
                  f"{ratio:7.3f} {'<= ' + str(TARGETS[device]):>7}  {result}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
