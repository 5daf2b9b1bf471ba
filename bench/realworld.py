#!/usr/bin/env python3
"""torchtidy on public LibTorch code that nobody on the team wrote.

bench/realworld.list names the repositories (repository, commit, folders,
kind); their code is never committed. This script lints whatever of them is
present locally, at the listed commit, and prints every bug-level finding with
its triage from bench/realworld.triage (a real bug in that code, or a false
positive of ours), or "untriaged". A new finding, or a finding triaged as a
false positive, is what a change to the analysis has to answer for.

Where the code comes from: --sources DIR holds, per repository, a folder
named `owner+name` that is (or contains) a bare git directory or a work tree
with the listed commit. The listed folders of that commit are exported to
--work, every C++ source file in them that includes LibTorch becomes one
translation unit of a generated compile_commands.json (C++17, LibTorch's
headers, the repository's own folders as include paths), and
torchtidy lints each at the bug level. A unit that does not parse (a
missing third-party header, such as OpenCV's) is counted, and its findings
are set aside: they rest on code clang could not see. A finding in a header
is counted once.

With --project, each repository is also one project (docs/README.md,
"Functions defined in another file of the project"): `torchtidy --index`
over a database of its units alone (the whole program, so that the index
knows every call of its functions) writes its facts, and each unit is then
linted on its own
with them (--project-facts), so that a unit that does not parse is still
told apart. The index run fills a result cache that the per-unit runs read.

Triage format (tab-separated, '#' comments):
  owner/name  path:line  check  TP|FP  what it is

Exit: 0 when every bug-level finding is triaged and none is a false positive;
1 otherwise; 2 on a usage error or when no listed repository is present.

With --level=performance, the performance level's findings are listed and
triaged too (the same triage file; a performance finding worth changing is
a TP, one that is not is an FP, with the reason).

Usage: bench/realworld.py --sources DIR [--build build/llvm-22] [-j N]
                          [--work DIR] [--only owner/name ...] [--project]
                          [--level bug|performance]
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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE_SUFFIXES = (".cpp", ".cc", ".cxx")
HEADER_SUFFIXES = (".h", ".hpp", ".hh", ".hxx")
# A source file that includes LibTorch, or uses it through a header of the
# project (`#include "model.h"` and then `torch::Tensor`).
USES_LIBTORCH = re.compile(rb"#\s*include\s*[<\"](torch/|ATen/)|\btorch::")
THIRD_PARTY_INCLUDE_DIRS = ("/usr/include/opencv4", "/usr/include/stb",
                            "/usr/include/jsoncpp")


def fail(message, code=2):
    print(f"realworld: {message}", file=sys.stderr)
    sys.exit(code)


def table_rows(path):
    """(line number, tab-separated fields) of a data file, without blank
    lines and '#' comments."""
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.strip() and not line.lstrip().startswith("#"):
                yield number, line.split("\t")


def read_list(path):
    """[(repo, commit, [folders], kind)] from bench/realworld.list."""
    entries = []
    for number, fields in table_rows(path):
        if len(fields) != 4 or not re.fullmatch(r"[0-9a-f]{40}", fields[1]):
            fail(f"{path}:{number}: expected repository, 40-hex commit, "
                 "folders, kind (tab-separated)")
        entries.append((fields[0], fields[1],
                        [p for p in fields[2].split(",") if p], fields[3]))
    return entries


def read_triage(path):
    """{(repo, 'path:line', check): (verdict, note)}."""
    triage = {}
    if not os.path.exists(path):
        return triage
    for number, fields in table_rows(path):
        if len(fields) < 4 or fields[3] not in ("TP", "FP"):
            fail(f"{path}:{number}: expected repository, path:line, check, "
                 "TP|FP, note (tab-separated)")
        triage[(fields[0], fields[1], fields[2])] = (
            fields[3], fields[4] if len(fields) > 4 else "")
    return triage


def git_dir_in(folder):
    """The bare git directory at or below folder, if any (fetch's layout)."""
    for candidate in [folder] + sorted(glob.glob(os.path.join(folder, "**"),
                                                 recursive=True)):
        if (os.path.isfile(os.path.join(candidate, "HEAD")) and
                os.path.isdir(os.path.join(candidate, "objects"))):
            return candidate
    return None


def export(repo, commit, folders, sources, work):
    """Writes the listed folders at commit under work/owner+name; returns
    that folder, or None (with the reason printed) when it is not present."""
    name = repo.replace("/", "+")
    source = os.path.join(sources, name)
    target = os.path.join(work, name)
    if not os.path.isdir(source):
        return None
    shutil.rmtree(target, ignore_errors=True)
    os.makedirs(target)
    git_dir = git_dir_in(source)
    if git_dir is None and os.path.isdir(os.path.join(source, ".git")):
        git_dir = os.path.join(source, ".git")
    if git_dir is None:
        print(f"{repo}: no git directory under {source}; skipped")
        return None
    paths = [] if folders == ["."] else folders
    # Only the C++ files: a fetched mirror may lack the large data files.
    listing = subprocess.run(["git", "--git-dir", git_dir, "ls-tree", "-r",
                              "-z", commit, "--", *paths],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if listing.returncode != 0:
        print(f"{repo}: commit {commit[:12]} not available "
              f"({listing.stderr.decode(errors='replace').strip()[:200]}); "
              "skipped")
        return None
    wanted = []
    for entry in listing.stdout.split(b"\0"):
        if not entry:
            continue
        meta, path = entry.split(b"\t", 1)
        mode, kind, blob = meta.split()
        name = path.decode(errors="replace")
        if (kind == b"blob" and name.endswith(SOURCE_SUFFIXES +
                                              HEADER_SUFFIXES)
                and ".." not in name.split("/") and not name.startswith("/")):
            wanted.append((name, blob.decode()))
    blobs = subprocess.run(["git", "--git-dir", git_dir, "cat-file",
                            "--batch"],
                           input="".join(f"{blob}\n" for _, blob in wanted)
                           .encode(), stdout=subprocess.PIPE, check=True)
    data, offset = blobs.stdout, 0
    for name, _ in wanted:
        header_end = data.index(b"\n", offset)
        header = data[offset:header_end].split()
        offset = header_end + 1
        if header[-1] == b"missing":
            continue
        size = int(header[2])
        path = os.path.join(target, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data[offset:offset + size])
        offset += size + 1
    return target


def translation_units(tree):
    """The C++ source files of the tree that include LibTorch, and every
    folder of the tree that holds headers."""
    units, header_dirs = [], set()
    for folder, _, names in os.walk(tree):
        for name in names:
            path = os.path.join(folder, name)
            if name.endswith(HEADER_SUFFIXES):
                header_dirs.add(folder)
            elif name.endswith(SOURCE_SUFFIXES):
                with open(path, "rb") as f:
                    if USES_LIBTORCH.search(f.read()):
                        units.append(path)
    return sorted(units), sorted(header_dirs)


def include_flags(unit, tree, header_dirs):
    """The unit's own folder, its parents up to the tree and their include/
    folders first (projects write "model.h", "include/model.h" and
    "src/model.h" alike); every other header folder of the tree after the
    system's, so that a tutorial's nnet.h never hides another's."""
    own = []
    folder = os.path.dirname(unit)
    while folder.startswith(tree):
        own.append(folder)
        if os.path.isdir(os.path.join(folder, "include")):
            own.append(os.path.join(folder, "include"))
        folder = os.path.dirname(folder)
    return ([f"-I{d}" for d in own] +
            [f"-idirafter{d}" for d in header_dirs if d not in own])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sources", required=True)
    parser.add_argument("--build", default=os.path.join(ROOT, "build",
                                                         "llvm-22"))
    parser.add_argument("--work", default=os.path.join(ROOT, "build",
                                                        "realworld"))
    parser.add_argument("--list", default=os.path.join(ROOT, "bench",
                                                        "realworld.list"))
    parser.add_argument("--triage", default=os.path.join(ROOT, "bench",
                                                          "realworld.triage"))
    parser.add_argument("--include-dir",
                        default="/usr/include/torch/csrc/api/include")
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("-j", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--project", action="store_true",
                        help="lint each unit with its repository's facts")
    parser.add_argument("--level", choices=("bug", "performance"),
                        default="bug",
                        help="performance: list the performance level's "
                        "findings too, each to be triaged like a bug's")
    args = parser.parse_args()

    # The units are linted in their own folders: the build's paths must not
    # be relative to this one.
    args.build = os.path.abspath(args.build)
    torchtidy = os.path.join(args.build, "bin", "torchtidy")
    pch = os.path.join(args.build, "test", "lit", "torch.pch")
    for tool in (torchtidy, pch):
        if not os.path.exists(tool):
            fail(f"{tool} is missing: build first (scripts/build.sh)")
    entries = read_list(args.list)
    triage = read_triage(args.triage)
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    flags = ["-std=c++17", "-isystem", args.include_dir, "-include-pch", pch,
             "-w"]
    # Third-party headers these projects use, where Debian's packages put
    # them (libopencv-dev, libstb-dev, libjsoncpp-dev; Boost is on the
    # default path): more units parse when installed.
    for extra in THIRD_PARTY_INCLUDE_DIRS:
        if os.path.isdir(extra):
            flags += ["-isystem", extra]

    database, owner_of, per_repo = [], {}, collections.OrderedDict()
    units_of = {}
    for repo, commit, folders, kind in entries:
        if args.only is not None and repo not in args.only:
            continue
        tree = export(repo, commit, folders, os.path.abspath(args.sources),
                      work)
        if tree is None:
            continue
        units, header_dirs = translation_units(tree)
        per_repo[repo] = {"kind": kind, "units": len(units), "errors": 0,
                          "findings": 0, "TP": 0, "FP": 0, "untriaged": 0}
        units_of[repo] = units
        owner_of[tree + os.sep] = repo
        for unit in units:
            database.append({
                "directory": os.path.dirname(unit), "file": unit,
                "arguments": ["clang++", *flags,
                              *include_flags(unit, tree, header_dirs),
                              "-c", unit]})
    if not database:
        fail("no listed repository is present under --sources")
    with open(os.path.join(work, "compile_commands.json"), "w") as f:
        json.dump(database, f, indent=1)

    # With --project: per repository, an index of its facts, written by a
    # run that fills the cache the per-unit runs then read.
    cache = os.path.join(work, "cache")
    index_of = {}
    if args.project:
        # Cold, so that the run's time is that of a cold project run.
        shutil.rmtree(cache, ignore_errors=True)
        for repo, units in units_of.items():
            if not units:
                continue
            index = os.path.join(work, "facts", repo.replace("/", "+")
                                 + ".json")
            os.makedirs(os.path.dirname(index), exist_ok=True)
            # The repository's own database, linted whole, as its users
            # would: the index then knows every call of its functions.
            project = os.path.join(work, "projects", repo.replace("/", "+"))
            os.makedirs(project, exist_ok=True)
            with open(os.path.join(project, "compile_commands.json"),
                      "w") as f:
                json.dump([e for e in database if e["file"] in set(units)],
                          f, indent=1)
            done = subprocess.run(
                [torchtidy, "-p", project, "--level=bug", f"--index={index}",
                 f"--cache-dir={cache}", "-j", str(args.j)],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if done.returncode != 0:
                fail(f"torchtidy --index failed ({done.returncode}) on "
                     f"{repo}: {done.stderr.strip()[-500:]}")
            for unit in units:
                index_of[unit] = index

    def lint(entry):
        mode = ([f"--project-facts={index_of[entry['file']]}",
                 f"--cache-dir={cache}"] if args.project else ["--no-cache"])
        done = subprocess.run([torchtidy, "-p", work, f"--level={args.level}",
                               "--format=json", *mode, entry["file"]],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
        if done.returncode not in (0, 1, 2) or not done.stdout.strip():
            fail(f"torchtidy failed ({done.returncode}) on {entry['file']}: "
                 f"{done.stderr.strip()[-500:]}")
        return entry["file"], json.loads(done.stdout)["findings"]

    def repo_of(path):
        for prefix, repo in owner_of.items():
            if path.startswith(prefix):
                return repo, os.path.relpath(path, prefix)
        return None, path

    # One torchtidy per translation unit: a unit that does not parse (a
    # header missing here) is told apart, and its findings are set aside,
    # since they rest on code clang could not see.
    with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
        results = list(pool.map(lint, database))
    verdicts = collections.Counter()
    rows, seen, set_aside = [], set(), 0
    for unit, findings in results:
        repo, _ = repo_of(unit)
        errors = [f for f in findings if f["level"] == "error"]
        if errors:
            per_repo[repo]["errors"] += 1
            set_aside += sum(f["level"] in ("bug", "performance")
                             for f in findings)
            print(f"not parsed\t{repo}\t{repo_of(unit)[1]}\t"
                  f"{errors[0]['message']}")
            continue
        reported = ("bug", "performance") if args.level == "performance" \
            else ("bug",)
        for finding in findings:
            if finding["level"] not in reported:
                continue
            repo, relative = repo_of(finding["file"])
            place = f"{relative}:{finding['line']}"
            # A finding in a header is the same finding from every unit.
            if repo is None or (repo, place, finding["check"]) in seen:
                continue
            seen.add((repo, place, finding["check"]))
            verdict, note = triage.get((repo, place, finding["check"]),
                                       ("untriaged", ""))
            per_repo[repo]["findings"] += 1
            per_repo[repo][verdict] += 1
            verdicts[verdict] += 1
            rows.append((repo, place, finding["check"], verdict, note,
                         finding["message"]))

    for repo, place, check, verdict, note, message in sorted(rows):
        print(f"{verdict}\t{repo}\t{place}\t{check}\t{message}"
              + (f"\t[{note}]" if note else ""))
    print()
    print(f"{'repository':44} {'kind':12} {'TUs':>4} {'err':>4} "
          f"{'bug':>4} {'TP':>4} {'FP':>4} {'new':>4}")
    total = collections.Counter()
    for repo, row in per_repo.items():
        print(f"{repo:44} {row['kind']:12} {row['units']:4} "
              f"{row['errors']:4} {row['findings']:4} {row['TP']:4} "
              f"{row['FP']:4} {row['untriaged']:4}")
        for key in ("units", "errors", "findings", "TP", "FP", "untriaged"):
            total[key] += row[key]
    print(f"{'total':44} {'':12} {total['units']:4} {total['errors']:4} "
          f"{total['findings']:4} {total['TP']:4} {total['FP']:4} "
          f"{total['untriaged']:4}")
    print(f"repositories: {len(per_repo)}; translation units: "
          f"{total['units']}, of which {total['units'] - total['errors']} "
          f"parsed without error (an error: a header missing here; "
          f"{set_aside} {args.level}-level findings in those set aside)")
    clean = verdicts["FP"] == 0 and verdicts["untriaged"] == 0
    print(f"every {args.level}-level finding triaged, no false positive: "
          + ("yes" if clean else "no"))
    # Nothing parsed says nothing about the findings: a broken setup (a
    # missing precompiled header, headers of another LibTorch) is not a
    # clean run.
    if total["units"] and total["units"] == total["errors"]:
        fail("no translation unit parsed: the setup is broken", 1)
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main())
