#!/usr/bin/env python3
"""Every header of LibTorch's C++ API, compiled as its own translation unit
through every torchtidy check.

For each header H under <include-dir>/torch (sorted) a one-line TU
`#include <H>` is linted with

  torchtidy --level=style --format=json --no-cache tu.cpp \
      -- -std=c++17 -isystem <include-dir>

No precompiled header: the checks skip declarations that come from a PCH, so
a PCH would hide exactly the code this sweep is meant to walk through.

Exit code 1 when a TU crashed (killed by a signal, or an exit code torchtidy
never uses), hung (--timeout), printed unreadable output, or got a finding
located inside LibTorch's headers (system headers must never be reported).
A header clang cannot parse on its own (exit code 2) is LibTorch's fact, not
torchtidy's failure: it is counted and named, and does not fail the sweep.

usage: header_sweep.py --torchtidy PATH [--include-dir DIR] [--jobs N]
                       [--timeout S] [--limit N] [--shard K/N]
                       [--also HEADER]...
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import resource
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

DEFAULT_INCLUDE = "/usr/include/torch/csrc/api/include"


@dataclass
class Result:
    header: str
    seconds: float
    exit_code: int | None = None  # None: killed by us after --timeout
    # The checks' findings. The TU holds only the #include line, so one that
    # is not in the TU is in LibTorch's headers (torch/, ATen/, c10/, ... all
    # under /usr/include in Debian) or what they include: never to be
    # reported.
    in_headers: list = field(default_factory=list)
    in_tu: list = field(default_factory=list)
    errors: list = field(default_factory=list)  # clang's parse errors
    stderr: str = ""
    bad_output: str = ""  # why the JSON could not be read, if it could not

    @property
    def kind(self):
        if self.exit_code is None:
            return "hang"
        # Negative: killed by a signal (a crash). Above 2: torchtidy has no
        # such exit code, so something other than torchtidy ended it.
        if self.exit_code < 0 or self.exit_code > 2:
            return "crash"
        if self.bad_output:
            return "bad-output"
        if self.exit_code == 2:
            return "parse-failure"
        return "ok"


def lint_command(torchtidy, tu, include_dir):
    return [torchtidy, "--level=style", "--format=json", "--no-cache", tu,
            "--", "-std=c++17", "-isystem", include_dir]


def where(item):
    return f"{item.get('file')}:{item.get('line')}:{item.get('column')}"


def lint_one(torchtidy, include_dir, scratch, header, timeout):
    tu = os.path.join(scratch, header.replace("/", "__") + ".cpp")
    with open(tu, "w") as f:
        f.write(f"#include <{header}>\n")
    start = time.monotonic()
    try:
        # cwd: anything torchtidy might write lands in the scratch directory.
        run = subprocess.run(lint_command(torchtidy, tu, include_dir),
                             capture_output=True, text=True, timeout=timeout,
                             cwd=scratch, errors="replace")
    except subprocess.TimeoutExpired:
        return Result(header, time.monotonic() - start)
    result = Result(header, time.monotonic() - start, run.returncode,
                    stderr=run.stderr)
    if result.kind == "crash":
        return result
    try:
        items = json.loads(run.stdout)["findings"]
    except (ValueError, KeyError, TypeError) as e:
        result.bad_output = f"{type(e).__name__}: {e}"
        return result
    for item in items:
        if (item.get("level") == "error"
                or item.get("check") == "clang-diagnostic-error"):
            result.errors.append(item)
        elif os.path.realpath(str(item.get("file"))) == os.path.realpath(tu):
            result.in_tu.append(item)
        else:
            result.in_headers.append(item)
    return result


def select(headers, limit, shard, also=()):
    if shard:
        # Round-robin, so each shard gets a mix of cheap and costly headers.
        k, n = shard
        headers = headers[k - 1::n]
    if limit:
        headers = headers[:limit]
    # Headers every sample must hold (torch/all.h, which includes nearly all
    # the others), in sorted place; one that does not exist is an error.
    return sorted(set(headers) | set(also))


def parse_shard(text):
    try:
        k, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError("expected K/N, e.g. 1/4")
    if not 1 <= k <= n:
        raise argparse.ArgumentTypeError("K/N needs 1 <= K <= N")
    return k, n


def first_line(text):
    return next((line for line in text.splitlines() if line.strip()), "")


def report(results, include_dir, torchtidy, wall, cpu):
    """Prints the summary; returns the number of failures."""
    def repro(r):
        cmd = " ".join(shlex.quote(a)
                       for a in lint_command(torchtidy, "t.cpp", include_dir))
        return f"    reproduce: echo '#include <{r.header}>' > t.cpp && {cmd}"

    parse_failures = [r for r in results if r.kind == "parse-failure"]
    crashes = [r for r in results if r.kind in ("crash", "bad-output")]
    hangs = [r for r in results if r.kind == "hang"]
    in_headers = [(r, f) for r in results for f in r.in_headers]
    in_tu = [(r, f) for r in results for f in r.in_tu]

    print(flush=True)
    for r in parse_failures:
        # The JSON is sorted by place, not by emission; an error without a
        # file ("too many errors emitted") sorts first and says nothing.
        placed = [e for e in r.errors if e.get("file")]
        error = (f"{where(placed[0])}: {placed[0].get('message')} "
                 f"({len(r.errors)} error(s))"
                 if placed else first_line(r.stderr))
        print(f"parse failure: {r.header}: {error}")
    for r in crashes:
        why = (f"exit code {r.exit_code}" if r.kind == "crash"
               else f"unreadable output ({r.bad_output})")
        if r.exit_code is not None and r.exit_code < 0:
            why += f" ({signal.Signals(-r.exit_code).name})"
        print(f"CRASH: {r.header}: {why}"
              + (f": {first_line(r.stderr)}" if r.stderr.strip() else ""))
        print(repro(r))
    for r in hangs:
        print(f"HANG: {r.header}: no answer after {r.seconds:.0f} s")
        print(repro(r))
    for r, f in in_headers:
        print(f"FINDING IN LIBTORCH HEADER: {r.header}: {where(f)}: "
              f"{f.get('message')} [{f.get('check')}]")
        print(repro(r))
    # Not a failure, but suspicious: there is no code besides the #include.
    for r, f in in_tu:
        print(f"finding in the TU: {r.header}: {where(f)}: "
              f"{f.get('message')} [{f.get('check')}]")

    timed = [r for r in results if r.kind != "hang"]
    worst = max(timed, key=lambda r: r.seconds, default=None)
    rows = [
        ("headers checked", str(len(results))),
        ("parse failures (not self-contained)", str(len(parse_failures))),
        ("crashes", str(len(crashes))),
        ("hangs", str(len(hangs))),
        ("findings in LibTorch headers", str(len(in_headers))),
        ("findings in the TU itself", str(len(in_tu))),
        ("total time (wall)", f"{wall:.1f} s"),
        ("sum of TU times", f"{sum(r.seconds for r in results):.1f} s"),
        # What CI pays, whatever else the machine is doing at the time.
        ("CPU time of the TUs", f"{cpu:.1f} s"),
        ("median time per TU",
         f"{statistics.median(r.seconds for r in timed):.1f} s"
         if timed else "-"),
        ("worst time per TU",
         f"{worst.seconds:.1f} s ({worst.header})" if worst else "-"),
    ]
    if parse_failures or crashes or hangs or in_headers or in_tu:
        print()
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    return len(crashes) + len(hangs) + len(in_headers)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--torchtidy", required=True)
    parser.add_argument("--include-dir", default=DEFAULT_INCLUDE)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=float, default=300,
                        help="seconds per TU; longer counts as a hang")
    parser.add_argument("--limit", type=int, default=0,
                        help="only the first N headers (after --shard)")
    parser.add_argument("--shard", type=parse_shard, default=None,
                        help="K/N: every Nth header, starting at the Kth")
    parser.add_argument("--also", action="append", default=[],
                        metavar="HEADER",
                        help="a header (e.g. torch/all.h) linted whatever "
                             "--shard and --limit select")
    args = parser.parse_args(argv)

    include_dir = os.path.abspath(args.include_dir)
    torchtidy = os.path.abspath(args.torchtidy)
    root = os.path.join(include_dir, "torch")
    headers = sorted(os.path.relpath(os.path.join(d, name), include_dir)
                     for d, _, names in os.walk(root)
                     for name in names if name.endswith(".h"))
    if not headers:
        print(f"no headers under {root}")
        return 1
    missing = [h for h in args.also if h not in headers]
    if missing:
        print(f"--also: no header {', '.join(missing)} under {include_dir}")
        return 1
    headers = select(headers, args.limit, args.shard, args.also)
    print(f"{len(headers)} headers, {args.jobs} job(s), {torchtidy}",
          flush=True)

    def children_cpu():
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    results = []
    start, start_cpu = time.monotonic(), children_cpu()
    with tempfile.TemporaryDirectory(prefix="header-sweep-") as scratch, \
         concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futures = [pool.submit(lint_one, torchtidy, include_dir, scratch, h,
                               args.timeout) for h in headers]
        for future in concurrent.futures.as_completed(futures):
            r = future.result()
            results.append(r)
            # One line a TU: progress in CI logs, and a per-TU time record.
            print(f"[{len(results)}/{len(headers)}] {r.seconds:6.1f} s "
                  f"exit={r.exit_code} {r.kind} {r.header}", flush=True)
    results.sort(key=lambda r: r.header)
    failures = report(results, include_dir, torchtidy,
                      time.monotonic() - start, children_cpu() - start_cpu)
    print("FAIL" if failures else "PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
