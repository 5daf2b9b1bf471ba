#!/usr/bin/env bash
# Adds the skeleton of a new check, as clang-tidy's add_new_check.py does.
# Usage: scripts/new-check.sh <name> <Class> <level> "<summary>"
#   scripts/new-check.sh libtorch-foo-bar FooBarCheck performance \
#     "a foo where a bar would do"
# Writes what docs/contributing.md lists, and nothing else:
#   lib/Checks/<Class>.h and .cpp   the check: a placeholder matcher (LibTorch
#                                   factory calls) to replace with its own
#   lib/Checks/CheckCatalogue.def   its row, after the last row of its level,
#                                   with runtime event 'none'
#   lib/CMakeLists.txt              Checks/<Class>.cpp in torchtidyChecks
#   test/lit/<name without libtorch->/positives.cpp and negatives.cpp
#   docs/checks/<name>.md           its page, with the sections to fill in
# and then writes the rows of README.md's and docs/README.md's check tables
# and level lists from the catalogue (test/check_catalogue_docs.py --write),
# so the ctest catalogue-docs passes; the summaries there are plain text to
# reword by hand. Everything else (the registration, --list-checks, SARIF
# rules, the lit suite list) follows from the catalogue row.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "usage: scripts/new-check.sh <name> <Class> <level> \"<summary>\"" >&2
  echo "  e.g. scripts/new-check.sh libtorch-foo-bar FooBarCheck performance \"a foo where a bar would do\"" >&2
  exit 2
}
fail() {
  echo "new-check.sh: $*" >&2
  exit 1
}
[ $# -eq 4 ] || usage
name=$1 class=$2 level=$3 summary=$4
[[ $name =~ ^libtorch-[a-z0-9]+(-[a-z0-9]+)*$ ]] ||
  fail "the name is libtorch-<words>, lower case and hyphens: '$name'"
[[ $class =~ ^[A-Z][A-Za-z0-9]*Check$ ]] ||
  fail "the class is a CamelCase name ending in Check: '$class'"
[[ $level =~ ^(bug|performance|style)$ ]] ||
  fail "the level is bug, performance or style: '$level'"
[ -n "$summary" ] || fail "the summary is one line for --list-checks"
[[ $summary != *'"'* && $summary != *'\'* ]] ||
  fail "the summary holds no quote or backslash (it becomes a C string)"
suite=${name#libtorch-}
catalogue=lib/Checks/CheckCatalogue.def
if python3 test/catalogue.py "$catalogue" names | grep -qx -- "$name"; then
  fail "$name is in $catalogue already"
fi
for path in "lib/Checks/$class.h" "lib/Checks/$class.cpp" "test/lit/$suite" \
            "docs/checks/$name.md"; do
  [ ! -e "$path" ] || fail "$path exists already"
done

# "//===--- <title> ---...---<end>": the banner of the project's C++ files,
# 80 columns; the check's name is left out where it does not fit.
banner() {
  local title="$1 - $name" end=$2
  if [ $((9 + ${#title} + 1 + ${#end})) -gt 79 ]; then
    title=$1
  fi
  local dashes=$((80 - 9 - ${#title} - 1 - ${#end}))
  printf '//===--- %s %s%s\n' "$title" "$(printf -- '-%.0s' $(seq "$dashes"))" "$end"
}
guard="TORCHTIDY_CHECKS_$(echo "$class" | tr '[:lower:]' '[:upper:]')_H"

{
  banner "$class.h" "-*- C++ -*-===//"
  cat <<EOF
//
$(echo "$summary." | fold -s -w 76 | sed 's|^|// |; s| *$||')
// TODO: what the check finds and why it matters, in short; its page in
// docs/checks/ says it at length.
//
//===----------------------------------------------------------------------===//

#ifndef $guard
#define $guard

#include "Checks/LibTorchCheck.h"

namespace torchtidy {

class $class : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchtidy

#endif // $guard
EOF
} > "lib/Checks/$class.h"

{
  banner "$class.cpp" "===//"
  cat <<EOF

#include "Checks/$class.h"
#include "Model/TorchApi.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

void $class::registerMatchers(MatchFinder *Finder) {
  // TODO: match what the check looks at. The placeholder matches every call
  // in the user's code (never LibTorch's own headers) and asks the model
  // (lib/Model) which are LibTorch's factories, so that the generated lit
  // cases pass from the start.
  Finder->addMatcher(callExpr(unless(isExpansionInSystemHeader())).bind("call"),
                     this);
}

void $class::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  if (classifyCall(Call) != TorchCallKind::Factory)
    return;
  // TODO: say what is wrong here and what to write instead.
  diag(Call->getBeginLoc(), "'%0' creates a tensor (placeholder finding)")
      << calleeDisplayName(Call);
}

} // namespace torchtidy
EOF
} > "lib/Checks/$class.cpp"

# The catalogue row after the last row of its level or a level before it
# (the rows go bug, performance, style), and the source after the last
# check's in torchtidyChecks.
python3 - "$catalogue" "$name" "$class" "$level" "$summary" <<'EOF'
import re
import sys
import textwrap

sys.path.insert(0, "test")
import catalogue

path, name, cls, level, summary = sys.argv[1:]
order = ["bug", "performance", "style"]
checks = catalogue.read(path)
before = [c.name for c in checks if order.index(c.level) <= order.index(level)]
text = open(path, encoding="utf-8").read()
# A whole row: strings (which may hold parentheses) and what is between them.
row_pattern = re.compile(r'TORCHTIDY_CHECK\((?:[^"()]|"(?:[^"\\]|\\.)*")*\)\n')
if before:
    at = row_pattern.match(text, text.index(f'TORCHTIDY_CHECK("{before[-1]}"')).end()
else:
    at = text.index("TORCHTIDY_CHECK(")
indent = " " * len("TORCHTIDY_CHECK(")
# Pieces of at most 60 characters, each but the last ending in its space,
# as clang-format leaves the rows' strings.
pieces = [line + " " for line in textwrap.wrap(summary, 59)]
pieces[-1] = pieces[-1][:-1]
head = f'TORCHTIDY_CHECK("{name}", {cls}, {level}, none,'
if len(head) > 80:
    head = f'TORCHTIDY_CHECK("{name}",\n{indent}{cls}, {level}, none,'
row = (head + "\n"
       + "\n".join(f'{indent}"{piece}"' for piece in pieces) + ")\n")
open(path, "w", encoding="utf-8").write(text[:at] + row + text[at:])

cmake = "lib/CMakeLists.txt"
lines = open(cmake, encoding="utf-8").read().split("\n")
first = lines.index("add_library(torchtidyChecks OBJECT")
end = lines.index(")", first)
last = max(i for i in range(first, end) if re.match(r"\s+Checks/\w+Check\.cpp$", lines[i]))
lines.insert(last + 1, f"  Checks/{cls}.cpp")
open(cmake, "w", encoding="utf-8").write("\n".join(lines))
EOF

mkdir -p "test/lit/$suite"
cat > "test/lit/$suite/positives.cpp" <<EOF
// RUN: %check_lint %s --checks='-*,$name' -- %torch_flags \\
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// TODO: the code $name finds, on the real LibTorch headers, each
// case followed by the warning it gives (and a fixits.cpp where the check
// has fix-its: test/lit/missing-target-migration/fixits.cpp).
#include <torch/torch.h>

torch::Tensor weights() {
  return torch::ones({2, 2});
  // CHECK: :[[@LINE-1]]:10: warning: 'torch::ones' creates a tensor (placeholder finding) [$name]
}
EOF
cat > "test/lit/$suite/negatives.cpp" <<EOF
// RUN: %check_lint %s --checks='-*,$name' -- %torch_flags \\
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='warning:'
// CHECK-NOT: warning:
// TODO: correct code close to what $name finds, which it must
// not report.
#include <torch/torch.h>

torch::Tensor add(const torch::Tensor &x, const torch::Tensor &y) {
  return x + y;
}
EOF

case $level in
  bug) selected="on by default" ;;
  *) selected="opt-in: \`--level=$level\`, or name the check" ;;
esac
cat > "docs/checks/$name.md" <<EOF
# $name

Level: \`$level\` ($selected).

## What it finds

$summary.

TODO: the code it reports, and what it does not report.

## Why it matters

TODO: what happens at run time.

## Example

\`\`\`cpp
TODO
\`\`\`

## Fix

\`\`\`cpp
TODO
\`\`\`

## Options

None.

## Known limits

TODO
EOF

python3 test/check_catalogue_docs.py . --write
cat <<EOF
new-check.sh: added $name ($class, $level). Now:
  - write the check in lib/Checks/$class.{h,cpp} and its cases in
    test/lit/$suite/ (positive, negative, fix-its);
  - fill in docs/checks/$name.md and reword its rows in README.md and
    docs/README.md;
  - if torchtidy run can observe it, set its runtime event in
    $catalogue and name it in docs/runtime.md;
  - build and test: scripts/build.sh 22 && ctest --test-dir build/llvm-22 -R 'lit-$suite|catalogue'
EOF
