#!/usr/bin/env python3
"""header_sweep.py fails when it should: run against a fake torchtidy that
crashes, hangs, prints garbage or reports a finding inside a system header
for chosen headers of a fake include directory. Seconds, no LibTorch needed.

usage: test_header_sweep.py [unittest options]
"""
import contextlib
import io
import json
import os
import signal
import sys
import tempfile
import textwrap
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import header_sweep  # noqa: E402

# Does, for the header its TU includes, what $FAKE_PLAN (JSON) says;
# by default what torchtidy does for a clean header.
FAKE_TORCHTIDY = textwrap.dedent("""\
    import json, os, signal, sys, time
    args = sys.argv[1:]
    # The sweep's command line, or a loud failure (99 reads as a crash).
    if not {"--level=style", "--format=json", "--no-cache", "--"} <= set(args):
        sys.exit(99)
    tu = next(a for a in args if a.endswith(".cpp"))
    header = open(tu).read().strip()[len("#include <"):-1]
    action = json.loads(os.environ.get("FAKE_PLAN", "{}")).get(header, "clean")

    def finding(file, check="libtorch-hardcoded-device", level="style"):
        return {"file": file, "line": 3, "column": 5, "check": check,
                "level": level, "message": "fake", "notes": [], "fixes": []}

    findings = []
    if action == "segv":
        os.kill(os.getpid(), signal.SIGSEGV)
    elif action == "hang":
        time.sleep(60)
    elif action == "garbage":
        print("not json")
        sys.exit(0)
    elif action == "exit3":
        sys.exit(3)
    elif action == "system-finding":
        findings = [finding("/usr/include/ATen/fake.h")]
    elif action == "other-header-finding":
        findings = [finding("/opt/libtorch/include/c10/fake.h")]
    elif action == "user-finding":
        findings = [finding(tu)]
    elif action == "parse-error":
        findings = [finding("", "clang-diagnostic-error", "error"),
                    finding("/usr/include/torch/fake.h",
                            "clang-diagnostic-error", "error")]
    print(json.dumps({"findings": findings, "tool": "torchtidy"}))
    if action == "parse-error":
        print("torchtidy: error: some files could not be parsed",
              file=sys.stderr)
        sys.exit(2)
    sys.exit(1 if findings else 0)
""")


class HeaderSweepTest(unittest.TestCase):
    def setUp(self):
        scratch = tempfile.TemporaryDirectory()
        self.addCleanup(scratch.cleanup)
        self.include = os.path.join(scratch.name, "include")
        for header in ("torch/a.h", "torch/b.h", "torch/sub/c.h",
                       "torch/not-a-header.txt"):
            path = os.path.join(self.include, header)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            open(path, "w").close()
        self.fake = os.path.join(scratch.name, "torchtidy")
        with open(self.fake, "w") as f:
            # -S: no site-packages, a faster start.
            f.write(f"#!{sys.executable} -S\n" + FAKE_TORCHTIDY)
        os.chmod(self.fake, 0o755)

    def sweep(self, plan, *extra):
        # In-process: one python start less per test (slow on a busy CI).
        out = io.StringIO()
        with mock.patch.dict(os.environ, FAKE_PLAN=json.dumps(plan)), \
             contextlib.redirect_stdout(out):
            code = header_sweep.main(
                ["--torchtidy", self.fake, "--include-dir", self.include,
                 "--jobs", "2", *extra])
        return code, out.getvalue()

    def assertSummary(self, output, name, value):
        self.assertRegex(output, rf"(?m)^{name} +{value}$")

    def test_clean(self):
        code, out = self.sweep({})
        self.assertEqual(code, 0, out)
        self.assertSummary(out, "headers checked", "3")
        self.assertSummary(out, "crashes", "0")
        self.assertIn("PASS", out)

    def test_crash_by_signal(self):
        code, out = self.sweep({"torch/b.h": "segv"})
        self.assertEqual(code, 1, out)
        self.assertIn(f"CRASH: torch/b.h: exit code -{int(signal.SIGSEGV)} "
                      "(SIGSEGV)", out)
        self.assertIn("reproduce: echo '#include <torch/b.h>' > t.cpp", out)
        self.assertSummary(out, "crashes", "1")
        self.assertSummary(out, "headers checked", "3")

    def test_unknown_exit_code_is_a_crash(self):
        code, out = self.sweep({"torch/a.h": "exit3"})
        self.assertEqual(code, 1, out)
        self.assertIn("CRASH: torch/a.h: exit code 3", out)

    def test_unreadable_output_fails(self):
        code, out = self.sweep({"torch/a.h": "garbage"})
        self.assertEqual(code, 1, out)
        self.assertIn("CRASH: torch/a.h: unreadable output", out)

    def test_hang(self):
        # Generous: the fake is a python process, slow to start on a busy
        # machine, and only the hanging header may time out.
        code, out = self.sweep({"torch/sub/c.h": "hang"}, "--timeout", "10")
        self.assertEqual(code, 1, out)
        self.assertIn("HANG: torch/sub/c.h", out)
        self.assertSummary(out, "hangs", "1")

    def test_finding_in_system_header_fails(self):
        code, out = self.sweep({"torch/a.h": "system-finding"})
        self.assertEqual(code, 1, out)
        self.assertIn("FINDING IN LIBTORCH HEADER: torch/a.h: "
                      "/usr/include/ATen/fake.h:3:5: fake "
                      "[libtorch-hardcoded-device]", out)
        self.assertSummary(out, "findings in LibTorch headers", "1")

    def test_finding_in_any_header_fails(self):
        # LibTorch's headers need not be under /usr/include (a zip LibTorch).
        code, out = self.sweep({"torch/b.h": "other-header-finding"})
        self.assertEqual(code, 1, out)
        self.assertIn("FINDING IN LIBTORCH HEADER: torch/b.h: "
                      "/opt/libtorch/include/c10/fake.h:3:5:", out)

    def test_finding_in_the_tu_is_listed_not_failed(self):
        code, out = self.sweep({"torch/a.h": "user-finding"})
        self.assertEqual(code, 0, out)
        self.assertRegex(
            out, r"(?m)^finding in the TU: torch/a\.h: .*torch__a\.h\.cpp:3:5")
        self.assertSummary(out, "findings in the TU itself", "1")
        self.assertSummary(out, "findings in LibTorch headers", "0")

    def test_parse_failure_is_counted_not_failed(self):
        code, out = self.sweep({"torch/sub/c.h": "parse-error"})
        self.assertEqual(code, 0, out)
        # The placed error, not the place-less one that sorts first.
        self.assertIn("parse failure: torch/sub/c.h: "
                      "/usr/include/torch/fake.h:3:5: fake (2 error(s))", out)
        self.assertSummary(out, "parse failures \\(not self-contained\\)", "1")
        self.assertSummary(out, "findings in LibTorch headers", "0")

    def test_also_header_is_swept_with_any_shard(self):
        # Shard 2/2 holds torch/b.h only; --also brings in the crash of a.h.
        code, out = self.sweep({"torch/a.h": "segv"}, "--shard", "2/2",
                               "--also", "torch/a.h")
        self.assertEqual(code, 1, out)
        self.assertSummary(out, "headers checked", "2")
        code, out = self.sweep({}, "--shard", "2/2", "--also", "torch/nope.h")
        self.assertEqual(code, 1, out)
        self.assertIn("--also: no header torch/nope.h", out)

    def test_selection(self):
        headers = [f"h{i}" for i in range(7)]
        self.assertEqual(header_sweep.select(headers, 0, (1, 3)),
                         ["h0", "h3", "h6"])
        self.assertEqual(header_sweep.select(headers, 0, (3, 3)), ["h2", "h5"])
        self.assertEqual(header_sweep.select(headers, 2, None), ["h0", "h1"])
        shards = [header_sweep.select(headers, 0, (k, 3)) for k in (1, 2, 3)]
        self.assertEqual(sorted(sum(shards, [])), headers)
        # --also adds its headers to any sample, once, in sorted place.
        self.assertEqual(header_sweep.select(headers, 0, (3, 3), ["h0"]),
                         ["h0", "h2", "h5"])
        self.assertEqual(header_sweep.select(headers, 0, (1, 3), ["h0"]),
                         ["h0", "h3", "h6"])


if __name__ == "__main__":
    unittest.main()
