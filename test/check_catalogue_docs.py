#!/usr/bin/env python3
"""Holds what the documentation lists of the checks to the catalogue,
lib/Checks/CheckCatalogue.def, so that a check added, removed or moved to
another level there cannot be forgotten here:

- the check tables of README.md and docs/README.md: every check, in the
  catalogue's order, with its level and its page, and no other row;
- the recommended `.clang-tidy` of README.md and docs/README.md (the bug
  level) and docs/README.md's lists of the performance and style checks;
- docs/checks/: one page a check, titled with its name, and no other page;
- docs/runtime.md: the runtime event that confirms each check, as the
  catalogue's RuntimeEvent column says, and each such event one the shim
  reports (runtime/shim/SiteTable.cpp).

usage: check_catalogue_docs.py <source-dir> [--write]
  --write  rewrites the tables and the level lists from the catalogue (what
           scripts/new-check.sh runs): a row keeps its prose, a new check's
           row takes the catalogue's summary. The pages and docs/runtime.md
           are prose, written by hand.
"""
import pathlib
import re
import sys

import catalogue

# (file, header row, the first cell of a check's row)
TABLES = [
    ("README.md", "| check | level | finds |",
     lambda name: f"[`{name}`](docs/checks/{name}.md)"),
    ("docs/README.md", "| Check | Level | Summary |",
     lambda name: f"[{name}](checks/{name}.md)"),
]
NAME_CELL = re.compile(r"\[`?(libtorch-[a-z0-9-]+)`?\]\(")
# A recommended .clang-tidy that names checks one by one: the bug level.
BUG_CONFIG = re.compile(r"^(Checks: '-\*,)((?:libtorch-[a-z0-9-]+,?)+)(')$", re.M)
OPT_IN_LISTS = re.compile(r"(Add `)([^`]*)(`\s+for the `performance` level and `)"
                          r"([^`]*)(`\s+for `style`)")


def split_row(line):
    """A table row's cells, without the outer pipes (a `\\|` stays in its
    cell)."""
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


class Table:
    """One check table: where its rows are in the file's lines."""

    def __init__(self, lines, header, path):
        starts = [i for i, line in enumerate(lines) if line.strip() == header]
        if len(starts) != 1:
            raise ValueError(f"{path}: {len(starts)} tables with the header "
                             f"'{header}', expected one")
        self.first = starts[0] + 2  # after the header and the |---| line
        self.end = self.first
        while self.end < len(lines) and lines[self.end].startswith("|"):
            self.end += 1
        self.rows = {}  # name -> cells
        self.order = []
        for line in lines[self.first:self.end]:
            cells = split_row(line)
            match = NAME_CELL.match(cells[0]) if cells else None
            name = match.group(1) if match else line
            self.order.append(name)
            self.rows[name] = cells


def check_table(checks, path, table, name_cell):
    problems = []
    names = [check.name for check in checks]
    for name in table.order:
        if name not in names:
            problems.append(f"{path}: row '{name}' is no check of the catalogue")
    for check in checks:
        cells = table.rows.get(check.name)
        if cells is None:
            problems.append(f"{path}: no row for {check.name}")
            continue
        if len(cells) != 3:
            problems.append(f"{path}: {check.name}: {len(cells)} cells, expected 3")
            continue
        if cells[0] != name_cell(check.name):
            problems.append(f"{path}: {check.name}: first cell is '{cells[0]}', "
                            f"expected '{name_cell(check.name)}'")
        if cells[1] != check.level:
            problems.append(f"{path}: {check.name}: level '{cells[1]}', the "
                            f"catalogue says '{check.level}'")
    listed = [name for name in table.order if name in names]
    if not problems and listed != names:
        problems.append(f"{path}: rows are not in the catalogue's order "
                        f"({', '.join(names)})")
    return problems


def write_table(checks, lines, table, name_cell):
    rows = []
    for check in checks:
        cells = table.rows.get(check.name)
        prose = cells[2] if cells and len(cells) == 3 else \
            check.summary.replace("|", "\\|")
        rows.append(f"| {name_cell(check.name)} | {check.level} | {prose} |")
    lines[table.first:table.end] = rows


def level_lists(checks):
    return {level: ",".join(c.name for c in checks if c.level == level)
            for level in ("bug", "performance", "style")}


def check_level_lists(checks, path, text):
    levels = level_lists(checks)
    problems = []
    for match in BUG_CONFIG.finditer(text):
        if match.group(2) != levels["bug"]:
            problems.append(f"{path}: the recommended .clang-tidy lists "
                            f"'{match.group(2)}', the bug level is "
                            f"'{levels['bug']}'")
    if path == "docs/README.md":
        match = OPT_IN_LISTS.search(text)
        if not match:
            problems.append(f"{path}: no \"Add `...` for the `performance` "
                            "level and `...` for `style`\" sentence")
        else:
            for found, level in ((match.group(2), "performance"),
                                 (match.group(4), "style")):
                if found != levels[level]:
                    problems.append(f"{path}: the {level} level is listed as "
                                    f"'{found}', the catalogue's is "
                                    f"'{levels[level]}'")
    return problems


def write_level_lists(checks, text):
    levels = level_lists(checks)
    text = BUG_CONFIG.sub(lambda m: m.group(1) + levels["bug"] + m.group(3),
                          text)
    return OPT_IN_LISTS.sub(
        lambda m: (m.group(1) + levels["performance"] + m.group(3)
                   + levels["style"] + m.group(5)), text)


def check_pages(checks, root):
    problems = []
    names = {check.name for check in checks}
    pages = {page.stem: page for page in (root / "docs/checks").glob("*.md")}
    for name in sorted(names - pages.keys()):
        problems.append(f"docs/checks/{name}.md: missing")
    for name in sorted(pages.keys() - names):
        problems.append(f"docs/checks/{name}.md: no check of that name in the "
                        "catalogue")
    for name in sorted(names & pages.keys()):
        first = pages[name].read_text(encoding="utf-8").splitlines()[:1]
        if first != [f"# {name}"]:
            problems.append(f"docs/checks/{name}.md: first line is not "
                            f"'# {name}'")
    return problems


def check_runtime_events(checks, root):
    """docs/runtime.md's `confirmed` item names, in order, each event kind
    and then the checks it confirms."""
    problems = []
    text = (root / "docs/runtime.md").read_text(encoding="utf-8")
    item = re.search(r"^- `confirmed`:(.*?)(?=^- |^$)", text, re.M | re.S)
    if not item:
        return ["docs/runtime.md: no \"- `confirmed`:\" item"]
    documented = {}
    kind = None
    for word in re.findall(r"`([^`]+)`", item.group(1)):
        if word.startswith("libtorch-"):
            documented[word] = kind
        else:
            kind = word
    expected = {c.name: c.event for c in checks if c.event != "none"}
    for name, event in expected.items():
        if documented.get(name) != event:
            problems.append(f"docs/runtime.md: {name} is confirmed by "
                            f"'{event}' (catalogue), the `confirmed` item "
                            f"says '{documented.get(name)}'")
    for name in sorted(documented.keys() - expected.keys()):
        problems.append(f"docs/runtime.md: the `confirmed` item names {name}, "
                        "which has no runtime event in the catalogue")
    shim = (root / "runtime/shim/SiteTable.cpp").read_text(encoding="utf-8")
    reported = set(re.findall(r'return "([a-z_]+)";', shim)) - {"unknown"}
    for event in sorted(set(expected.values()) - reported):
        problems.append(f"lib/Checks/CheckCatalogue.def: runtime event "
                        f"'{event}' is none the shim reports "
                        f"({', '.join(sorted(reported))})")
    return problems


def main():
    if len(sys.argv) not in (2, 3) or sys.argv[2:] not in ([], ["--write"]):
        sys.exit(__doc__)
    root = pathlib.Path(sys.argv[1]).resolve()
    write = sys.argv[2:] == ["--write"]
    problems = []
    try:
        checks = catalogue.read(root / "lib/Checks/CheckCatalogue.def")
        for path, header, name_cell in TABLES:
            file = root / path
            text = file.read_text(encoding="utf-8")
            lines = text.split("\n")
            table = Table(lines, header, path)
            if write:
                write_table(checks, lines, table, name_cell)
                file.write_text(write_level_lists(checks, "\n".join(lines)),
                                encoding="utf-8")
                print(f"{path}: check table and level lists written")
            else:
                problems += check_table(checks, path, table, name_cell)
                problems += check_level_lists(checks, path, text)
        if not write:
            problems += check_pages(checks, root)
            problems += check_runtime_events(checks, root)
    except ValueError as error:
        print(error)
        return 1
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problem(s); `{sys.argv[0]} <source-dir> "
              "--write` writes the tables and level lists from the catalogue")
        return 1
    if not write:
        print(f"{len(checks)} checks: the docs list them as the catalogue does")
    return 0


if __name__ == "__main__":
    sys.exit(main())
