#!/usr/bin/env python3
"""The man page renders without groff warnings and documents every option
`torchtidy --help` lists, every command, and the options of `torchtidy lsp
--help` where this torchtidy has the language server.

usage: check_man_page.py <torchtidy> <man page>
"""
import re
import subprocess
import sys


def main():
    torchtidy, page = sys.argv[1], sys.argv[2]
    render = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", page],
                            capture_output=True, text=True)
    problems = [line for line in render.stderr.splitlines() if line.strip()]
    if render.returncode != 0:
        problems.append(f"groff exited with {render.returncode}")

    text = open(page, encoding="utf-8").read().replace("\\-", "-")
    help_text = subprocess.run([torchtidy, "--help"], capture_output=True,
                               text=True, check=True).stdout
    options = set(re.findall(r"^\s+(--?[a-z][a-z-]*)", help_text, re.M))
    # --help and --help-list are llvm::cl's own.
    options -= {"--help", "--help-list"}
    if len(options) < 10:
        problems.append(f"read only {len(options)} options from --help")
    lsp_help = subprocess.run([torchtidy, "lsp", "--help"],
                              capture_output=True, text=True)
    if lsp_help.returncode == 0:
        options |= set(re.findall(r"^\s+(--?[a-z][a-z-]*)", lsp_help.stdout,
                                  re.M)) - {"--help"}
    for option in sorted(options):
        if not re.search(re.escape(option) + r"(?![a-z-])", text):
            problems.append(f"option {option} is not in the man page")
    for command in ("run", "validate", "replay", "lsp"):
        if f".B {command}\n" not in text:
            problems.append(f"command '{command}' has no entry under COMMANDS")

    for problem in problems:
        print(f"{page}: {problem}")
    print(f"{len(options)} options checked, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
