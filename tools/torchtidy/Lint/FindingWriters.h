//===--- FindingWriters.h - JSON and SARIF output ---------------*- C++ -*-===//
//
// Machine-readable forms of a run's findings. Text output is clang-tidy's own
// (LintSession::printText); these writers only format, they never analyse.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_TOOLS_TORCHTIDY_FINDINGWRITERS_H
#define TORCHTIDY_TOOLS_TORCHTIDY_FINDINGWRITERS_H

#include "LintResult.h"

#include "llvm/Support/raw_ostream.h"

namespace torchtidy {

/// The check's page, docs/checks/<check>.md, as embedded at build time; ""
/// for a name without a page.
const char *documentationOf(llvm::StringRef Check);

/// {"version": ..., "findings": [{check, level, file, line, column, message,
/// notes: [...], fixes: [...]}]}
void writeJson(const std::vector<Finding> &Findings, llvm::raw_ostream &OS);

/// SARIF 2.1.0 as GitHub code scanning reads it: one rule per check with the
/// check's documentation as help, results with locations, the notes as
/// related locations and as a code flow ending at the finding, and fix-its
/// as fixes. Paths are made relative to
/// SourceRoot when they lie below it.
void writeSarif(const std::vector<Finding> &Findings,
                llvm::StringRef SourceRoot, llvm::raw_ostream &OS);

} // namespace torchtidy

#endif // TORCHTIDY_TOOLS_TORCHTIDY_FINDINGWRITERS_H
