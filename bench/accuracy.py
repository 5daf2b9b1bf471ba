#!/usr/bin/env python3
"""Accuracy of torchtidy's checks: a labelled corpus and injected bugs.

1. The corpus (bench/corpus/*.cpp, see bench/corpus/README.md) carries its
   ground truth as labels: `// torchtidy-expect: <check>[, <check>]` at the end
   of the line a finding belongs on. A finding on a labelled line of its check
   is a true positive, any other finding a false positive, a label nobody
   reported a false negative. A program without a bug-level label is correct.
2. bench/mutate (torchtidy-mutate) injects each bug class into the correct
   programs; a mutant is found when the check its label names reports more
   findings on it than on the program it came from. Findings the mutation
   adds for other checks are counted apart ("also"): a left-behind tensor
   may rightly show up in two checks.
3. With --replay, the bug-level findings the mutations added are replayed on
   the accelerator (torchtidy replay; meta stands in on a CPU-only machine)
   and the share the runtime confirms is printed.

Gate (exit 1): a program or mutant that does not compile, a bug-level
finding on a correct corpus program, or a check's recall on mutants below
its floor (RECALL_FLOOR; TARGET_RECALL for checks at the target). Exit 2: a
tool is missing or a label names no check.

Usage: bench/accuracy.py [--build build/llvm-22] [--max-per-operator 3]
                         [--no-mutants] [--replay] [-j N] [--work DIR]
                         [--include-dir DIR]... [--std c++20] [--pch PCH]
"""
import argparse
import collections
import concurrent.futures
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LABEL = re.compile(r"//\s*torchtidy-expect:\s*(.*)$")
MUTANT_LABEL = re.compile(
    r"^// torchtidy-mutant: (\S+) line (\d+) expects (\S+)\s*$", re.M)
# The recall every check should reach on the mutants of its bug class.
TARGET_RECALL = 0.95
# What CI holds each check to until it reaches the target: the recall
# measured when the floor was set, never lowered (raise it with the fix that
# raises the recall). Checks not listed are held to the target.
RECALL_FLOOR = {
    # Every check is at the target (LLVM 22, 2026-12-03): none listed.
}


def fail(message):
    print(f"accuracy: {message}", file=sys.stderr)
    sys.exit(2)


def list_checks(torchtidy):
    """check name -> level, from torchtidy --list-checks."""
    out = subprocess.run([torchtidy, "--list-checks"], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    levels = {}
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 2 and fields[0].startswith("libtorch-"):
            levels[fields[0]] = fields[1]
    return levels


def read_labels(path, levels):
    """{(line, check)} from a corpus program's torchtidy-expect comments."""
    labels = set()
    with open(path, encoding="utf-8") as source:
        for number, text in enumerate(source, start=1):
            match = LABEL.search(text)
            if not match:
                continue
            for check in filter(None, (c.strip() for c in
                                       match.group(1).split(","))):
                if check not in levels:
                    fail(f"{path}:{number}: label names no check: '{check}'")
                labels.add((number, check))
    return labels


def lint(torchtidy, flags, files, jobs):
    """{file: [finding]} for every file, from one torchtidy run over all of
    them (its own -j workers, each linting many files). Each file is a
    program of its own: no project facts cross them (a mutant shares every
    function name with its original and its sibling mutants)."""
    findings = {os.path.realpath(f): [] for f in files}
    done = subprocess.run(
        [torchtidy, "--level=style", "--format=json", "--no-cache",
         "--no-project-facts", "-j", str(jobs), *files, "--", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    # 0 clean, 1 findings, 2 some file did not parse (scored as such).
    if done.returncode not in (0, 1, 2) or not done.stdout.strip():
        fail(f"torchtidy failed ({done.returncode}): "
             f"{done.stderr.strip()[-500:]}")
    for finding in json.loads(done.stdout)["findings"]:
        key = os.path.realpath(finding["file"])
        if key in findings:
            findings[key].append(finding)
    return findings


def compile_errors(findings):
    return [f for f in findings if f["check"].startswith("clang-diagnostic")
            and f["level"] == "error"]


class Table:
    """Per-check counts."""

    def __init__(self, checks):
        self.rows = {c: collections.Counter() for c in checks}

    def add(self, check, column, count=1):
        self.rows[check][column] += count


def score_corpus(programs, findings, levels, table, problems):
    """Corpus TP/FP/FN per check; the correct programs' bug-level findings."""
    correct, misses, noise = [], [], []
    for path, labels in programs.items():
        errors = compile_errors(findings[path])
        if errors:
            problems.append(f"{rel(path)} does not compile: "
                            f"{errors[0]['message']}")
            continue
        reported = {(f["line"], f["check"]): f for f in findings[path]
                    if f["check"] in levels}
        for key, finding in sorted(reported.items()):
            if key in labels:
                table.add(key[1], "tp")
            else:
                table.add(key[1], "fp")
                noise.append((path, finding))
        for line, check in sorted(labels - set(reported)):
            table.add(check, "fn")
            misses.append(f"{rel(path)}:{line} {check}")
        if not any(levels[c] == "bug" for _, c in labels):
            correct.append(path)
    bug_noise = [(p, f) for p, f in noise
                 if p in correct and levels[f["check"]] == "bug"]
    return correct, misses, noise, bug_noise


def mutate(mutate_tool, flags, programs, out_dir, jobs, per_operator,
           problems):
    """Writes the mutants of every program; returns their paths."""
    def run(program):
        done = subprocess.run(
            [mutate_tool, "--no-compile-check", "--out", out_dir,
             f"--max-per-operator={per_operator}", program, "--", *flags],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        return program, done

    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for program, done in pool.map(run, programs):
            for line in done.stderr.splitlines():
                # A program that does not parse is a failure. The mutants
                # are not compiled here: the lint parses each one anyway
                # and score_mutants drops those that do not compile.
                if "does not compile" in line:
                    problems.append(line)
            if done.returncode not in (0, 1):
                fail(f"torchtidy-mutate failed on {program}: {done.stderr}")
    return sorted(os.path.realpath(p)
                  for p in glob.glob(os.path.join(out_dir, "*.cpp")))


def score_mutants(mutants, findings, corpus_findings, levels, table,
                  dropped):
    """Mutant TP/FN per expected check; returns the misses and the
    bug-level findings each mutation added, for the replay. A candidate
    mutation that does not compile (an edit the program's types reject) is
    no mutant: it goes to `dropped`, listed, not scored."""
    misses, added_bugs = [], {}
    for mutant in mutants:
        with open(mutant, encoding="utf-8") as source:
            label = MUTANT_LABEL.search(source.read())
        if not label:
            fail(f"{mutant}: no torchtidy-mutant label")
        operator, line, expected = label.groups()
        stem = os.path.basename(mutant).split(".")[0]
        before = collections.Counter(
            f["check"] for f in corpus_findings[stem] if f["check"] in levels)
        errors = compile_errors(findings[mutant])
        if errors:
            dropped.append(f"{rel(mutant)} does not compile: "
                           f"{errors[0]['message']}")
            continue
        after = collections.Counter(
            f["check"] for f in findings[mutant] if f["check"] in levels)
        new = after - before
        if new[expected]:
            table.add(expected, "mutant_tp")
        else:
            table.add(expected, "mutant_fn")
            others = sorted(c for c in new if levels[c] == "bug")
            if others:
                table.add(expected, "mutant_other")
            misses.append(f"{rel(mutant)} ({operator} at line {line})"
                          + (f": reported by {', '.join(others)} instead"
                             if others else ""))
        for check, count in new.items():
            if check != expected:
                table.add(check, "also", count)
        # The findings the mutation added: those of the checks that grew.
        added = [f for f in findings[mutant]
                 if new[f["check"]] and levels.get(f["check"]) == "bug"]
        if added:
            added_bugs[mutant] = added
    return misses, added_bugs


def replay(torchtidy, added_bugs, work):
    """Counter of replay verdicts over the added bug-level findings."""
    verdicts = collections.Counter()
    for mutant, added in sorted(added_bugs.items()):
        path = os.path.join(work, os.path.basename(mutant) + ".json")
        with open(path, "w", encoding="utf-8") as out:
            json.dump({"findings": added, "tool": "torchtidy"}, out)
        done = subprocess.run([torchtidy, "replay", "--findings", path],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
        if done.returncode not in (0, 1):
            fail(f"torchtidy replay failed on {path}: {done.stderr.strip()}")
        for line in done.stdout.splitlines():
            for verdict in ("confirmed", "refuted", "inconclusive",
                            "not replayable"):
                if line.startswith(verdict):
                    verdicts[verdict] += 1
    return verdicts


def rel(path):
    return os.path.relpath(path, ROOT)


def ratio(numerator, denominator):
    return numerator / denominator if denominator else None


def fmt(value):
    return "   -" if value is None else f"{value:4.2f}"


def print_table(table, levels):
    print(f"{'check':45} {'level':11} {'TP':>3} {'FP':>3} {'FN':>3} "
          f"{'prec':>5} {'rec':>5} | {'mutTP':>5} {'mutFN':>5} {'other':>5} "
          f"{'mrec':>5} {'floor':>5} {'also':>4}")
    total = collections.Counter()
    for check, row in table.rows.items():
        total.update(row)
        print_row(check, levels[check], row, RECALL_FLOOR.get(check))
    print_row("total", "", total, None)


def print_row(name, level, row, floor):
    precision = ratio(row["tp"], row["tp"] + row["fp"])
    recall = ratio(row["tp"], row["tp"] + row["fn"])
    mutant_recall = ratio(row["mutant_tp"], row["mutant_tp"] + row["mutant_fn"])
    print(f"{name:45} {level:11} {row['tp']:3} {row['fp']:3} {row['fn']:3} "
          f"{fmt(precision):>5} {fmt(recall):>5} | {row['mutant_tp']:5} "
          f"{row['mutant_fn']:5} {row['mutant_other']:5} "
          f"{fmt(mutant_recall):>5} {fmt(floor):>5} {row['also']:4}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build",
                                                        "llvm-22"))
    parser.add_argument("--corpus", default=os.path.join(ROOT, "bench",
                                                         "corpus"))
    parser.add_argument("--include-dir", action="append",
                        help="LibTorch's headers, as -isystem, in order "
                        "(repeat; default: Debian's "
                        "/usr/include/torch/csrc/api/include)")
    parser.add_argument("--std", default="c++17",
                        help="the C++ standard (LibTorch 2.x needs c++20)")
    parser.add_argument("--pch", help="<torch/torch.h> precompiled with these "
                        "flags (default: the build's lit PCH)")
    parser.add_argument("--max-per-operator", type=int, default=3,
                        help="mutants per bug class and program")
    parser.add_argument("--no-mutants", action="store_true")
    parser.add_argument("--replay", action="store_true")
    parser.add_argument("-j", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--work", help="keep mutants and findings here")
    args = parser.parse_args()

    torchtidy = os.path.join(args.build, "bin", "torchtidy")
    mutate_tool = os.path.join(args.build, "bin", "torchtidy-mutate")
    pch = args.pch or os.path.join(args.build, "test", "lit", "torch.pch")
    for tool in (torchtidy, pch) + (() if args.no_mutants else
                                    (mutate_tool,)):
        if not os.path.exists(tool):
            fail(f"'{tool}' is missing; build {args.build} first")
    flags = [f"-std={args.std}"]
    for include_dir in (args.include_dir or
                        ["/usr/include/torch/csrc/api/include"]):
        flags += ["-isystem", include_dir]
    flags += ["-include-pch", pch]
    levels = list_checks(torchtidy)
    work = args.work or tempfile.mkdtemp(prefix="torchtidy-accuracy-")
    if os.path.isdir(os.path.join(work, "mutants")):
        shutil.rmtree(os.path.join(work, "mutants"))

    sources = sorted(glob.glob(os.path.join(args.corpus, "*.cpp")))
    if not sources:
        fail(f"no programs in {args.corpus}")
    programs = {os.path.realpath(p): read_labels(p, levels) for p in sources}
    table = Table(levels)
    problems = []
    corpus_findings = lint(torchtidy, flags, list(programs), args.j)
    correct, corpus_misses, noise, bug_noise = score_corpus(
        programs, corpus_findings, levels, table, problems)

    mutant_misses, added_bugs, mutants, dropped = [], {}, [], []
    if not args.no_mutants:
        mutants = mutate(mutate_tool, flags, correct,
                         os.path.join(work, "mutants"), args.j,
                         args.max_per_operator, problems)
        mutant_findings = lint(torchtidy, flags, mutants, args.j)
        by_stem = {os.path.basename(p)[:-4]: corpus_findings[p]
                   for p in correct}
        mutant_misses, added_bugs = score_mutants(
            mutants, mutant_findings, by_stem, levels, table, dropped)
        mutants = [m for m in mutants
                   if not compile_errors(mutant_findings[m])]

    print(f"corpus: {len(programs)} programs ({len(correct)} correct at the "
          f"bug level); mutants: {len(mutants)}")
    print_table(table, levels)
    print(f"bug-level findings on correct programs: {len(bug_noise)}")
    for title, items in (("missed labels", corpus_misses),
                         ("missed mutants", mutant_misses),
                         ("unlabelled findings", [
                             f"{rel(p)}:{f['line']} {f['check']}: "
                             f"{f['message']}" for p, f in noise]),
                         ("mutation candidates dropped", dropped),
                         ("problems", problems)):
        if items:
            print(f"{title}:")
            for item in items:
                print(f"  {item}")

    if args.replay and added_bugs:
        verdicts = replay(torchtidy, added_bugs, work)
        replayed = sum(verdicts.values()) - verdicts["not replayable"]
        counts = ", ".join(
            f"{verdict} {verdicts[verdict]}"
            for verdict in ("confirmed", "refuted", "inconclusive",
                            "not replayable"))
        print(f"replay of the bug-level findings mutations added: {counts}; "
              f"confirmed share of the replayable: "
              f"{fmt(ratio(verdicts['confirmed'], replayed))}")

    gate = []
    if problems:
        gate.append(f"{len(problems)} inputs do not compile")
    if bug_noise:
        gate.append(f"{len(bug_noise)} bug-level findings on correct programs")
    below_target = []
    for check, row in table.rows.items():
        tried = row["mutant_tp"] + row["mutant_fn"]
        if not tried:
            continue
        recall = row["mutant_tp"] / tried
        if recall < TARGET_RECALL:
            below_target.append(f"{check} {recall:.2f}")
        if recall < RECALL_FLOOR.get(check, TARGET_RECALL):
            gate.append(f"{check}: recall on mutants {recall:.2f} < floor "
                        f"{RECALL_FLOOR.get(check, TARGET_RECALL)}")
    print(f"target recall on mutants {TARGET_RECALL} per check: "
          + ("met" if not below_target else
             "not met by " + ", ".join(below_target)))
    print("gate (no bug-level finding on a correct program, no input that "
          "does not compile, recall on mutants >= each check's floor): "
          f"{'FAILED: ' + '; '.join(gate) if gate else 'passed'}")
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if gate else 0


if __name__ == "__main__":
    sys.exit(main())
