//===--- LintRun.h - torchtidy over a compilation database ------*- C++ -*-===//
//
// Runs the libtorch checks over translation units from a compilation database
// with clang-tidy's engine, so findings, NOLINT handling, .clang-tidy options
// and fix-its are exactly those of the clang-tidy module.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_TOOLS_TORCHTIDY_LINTRUN_H
#define TORCHTIDY_TOOLS_TORCHTIDY_LINTRUN_H

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>
#include <string>
#include <vector>

namespace torchtidy {

/// One finding or compiler error, as clang-tidy reports it.
using Finding = clang::tidy::ClangTidyError;

class LintSession {
public:
  /// Checks: globs applied after the defaults (all libtorch checks) and after
  /// any .clang-tidy file, as clang-tidy's --checks is.
  explicit LintSession(const std::string &Checks);
  ~LintSession();

  /// Lints the files; a file clang cannot parse yields compiler errors and
  /// the others still run. Results are sorted and free of duplicates.
  std::vector<Finding> run(const clang::tooling::CompilationDatabase &Database,
                           const std::vector<std::string> &Files);

  /// Prints findings as clang does: location, message, source excerpt, notes.
  void printText(const std::vector<Finding> &Findings);

  /// The names of the checks that would run for a file (for errors on bad
  /// --checks globs).
  std::vector<std::string> enabledChecks(llvm::StringRef File);

private:
  std::unique_ptr<clang::tidy::ClangTidyContext> Context;
};

/// Lints the files with Jobs worker threads, each with its own session;
/// Progress is called after each file (under a lock). The result does not
/// depend on Jobs: it is sorted by file, offset and check, without duplicates.
std::vector<Finding> lintInParallel(
    const std::string &Checks,
    const clang::tooling::CompilationDatabase &Database,
    const std::vector<std::string> &Files, unsigned Jobs,
    llvm::function_ref<void(size_t Done, size_t Total, llvm::StringRef File)>
        Progress);

/// A compiler error rather than a check's finding.
bool isCompilerError(const Finding &F);

/// A path named in a finding (its file, a note's, a fix's), made absolute:
/// clang-tidy keeps them relative to the compile command's directory.
std::string absolutePath(const Finding &F, llvm::StringRef Path);

/// Applies every finding's fix-its; a fix that conflicts with one already
/// taken is skipped. Returns the number of findings whose fixes were applied.
unsigned applyFixes(const std::vector<Finding> &Findings);

} // namespace torchtidy

#endif // TORCHTIDY_TOOLS_TORCHTIDY_LINTRUN_H
