#!/usr/bin/env python3
"""Reads lib/Checks/CheckCatalogue.def, the one list of checks, for the tests
that hold what lists the checks outside C++ to it (check_catalogue_docs.py,
lit/torchtidy/cli.test). cmake/CheckCatalogue.cmake reads the same rows for
the build.

usage: catalogue.py <CheckCatalogue.def> names [--sorted]
       catalogue.py <CheckCatalogue.def> rows
  names: one name a line, in the catalogue's order (--sorted: as clang-tidy
         --list-checks sorts them)
  rows:  "<name> <level> <summary>" a line, as `torchtidy --list-checks`
         prints them with its padding squeezed to one space
"""
import re
import sys
from collections import namedtuple

Check = namedtuple("Check", "name cls level event summary")

# A C string literal, an identifier, or one of the punctuation a row has.
TOKEN = re.compile(r'\s*(?:"((?:[^"\\]|\\.)*)"|([A-Za-z_]\w*)|([(),]))', re.S)


def _unescape(literal):
    return re.sub(r"\\(.)", r"\1", literal)


def read(path):
    """The catalogue's rows, in order; raises ValueError on a row that is
    not TORCHTIDY_CHECK("<name>", <Class>, <level>, <event>, "<summary>")."""
    with open(path, encoding="utf-8") as f:
        # Comment and preprocessor lines name the macro too.
        text = "".join(line for line in f
                        if not re.match(r"\s*(//|#)", line))
    checks = []
    for start in re.finditer(r"\bTORCHTIDY_CHECK\s*\(", text):
        position = start.end()
        fields = [[]]
        while True:
            token = TOKEN.match(text, position)
            if not token:
                raise ValueError(f"{path}: cannot read the row at "
                                 f"'{text[start.start():start.start() + 60]}'")
            position = token.end()
            literal, word, punct = token.groups()
            if punct == ")":
                break
            if punct == ",":
                fields.append([])
            elif punct == "(":
                raise ValueError(f"{path}: unexpected '(' in a row")
            else:
                # Adjacent literals concatenate, as in C.
                fields[-1].append(_unescape(literal) if literal is not None
                                  else word)
        if len(fields) != 5 or not all(fields):
            raise ValueError(f"{path}: a row has {len(fields)} fields, "
                             "expected name, class, level, event, summary")
        checks.append(Check(*("".join(field) for field in fields)))
    if not checks:
        raise ValueError(f"{path}: no TORCHTIDY_CHECK rows")
    return checks


def main():
    if len(sys.argv) < 3 or sys.argv[2] not in ("names", "rows"):
        sys.exit(__doc__)
    try:
        checks = read(sys.argv[1])
    except ValueError as error:
        print(error, file=sys.stderr)
        return 1
    if sys.argv[2] == "names":
        names = [check.name for check in checks]
        for name in sorted(names) if "--sorted" in sys.argv[3:] else names:
            print(name)
    else:
        for check in checks:
            print(f"{check.name} {check.level} {check.summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
