//===--- LintResult.h - What linting a file yields --------------*- C++ -*-===//
//
// The plain types the parts of the lint hand each other: a finding, and one
// file's result with every file it read and the project facts it gave and
// took. Apart from the session that makes them, so that what keeps them
// (ResultCache) and what prints them (FindingWriters) depend on them alone,
// not on clang-tidy's context or the scheduling of a run.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_TOOLS_TORCHTIDY_LINTRESULT_H
#define TORCHTIDY_TOOLS_TORCHTIDY_LINTRESULT_H

#include "Analysis/ProjectFacts.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"

#include <string>
#include <vector>

namespace torchtidy {

/// One finding or compiler error, as clang-tidy reports it.
using Finding = clang::tidy::ClangTidyError;

/// The result of one file: its findings and every file its translation unit
/// read (sources, headers, precompiled headers), for the cache; and, when
/// linted as part of a project, the facts it gives and took (ProjectFacts.h).
struct FileResult {
  std::vector<Finding> Findings;
  /// What the result rests on: every file the unit read and, for each
  /// header an include looked for in vain, the folders where it would
  /// appear (a folder's input is its list of entries).
  std::vector<std::string> Inputs;
  UnitFacts Facts;
};

/// A compiler error rather than a check's finding.
bool isCompilerError(const Finding &F);

/// Whether F is the compiler's fatal error for an `#include` whose file is
/// nowhere on the include path: where the parse stopped, whatever came
/// before it.
bool isMissingIncludeError(const Finding &F);

/// A path named in a finding (its file, a note's, a fix's), made absolute:
/// clang-tidy keeps them relative to the compile command's directory.
std::string absolutePath(const Finding &F, llvm::StringRef Path);

/// Sorted by absolute file, offset, check and message: the same output
/// whatever the order files were linted in.
void sortAndDeduplicate(std::vector<Finding> &Findings);

/// Applies every finding's fix-its; a fix that conflicts with one already
/// taken is skipped. Returns the number of findings whose fixes were applied.
unsigned applyFixes(const std::vector<Finding> &Findings);

} // namespace torchtidy

#endif // TORCHTIDY_TOOLS_TORCHTIDY_LINTRESULT_H
