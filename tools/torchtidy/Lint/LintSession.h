//===--- LintSession.h - One lint's clang-tidy context ----------*- C++ -*-===//
//
// Lints a file with clang-tidy's engine, so findings, NOLINT handling,
// .clang-tidy options and fix-its are exactly those of the clang-tidy
// module; the traversal is limited to the user's code. Which files a run
// lints, on which thread and how often, is LintScheduler's.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_TOOLS_TORCHTIDY_LINTSESSION_H
#define TORCHTIDY_TOOLS_TORCHTIDY_LINTSESSION_H

#include "LintRequest.h"
#include "LintResult.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace torchtidy {

/// A clang-tidy context and what runs on it. Not shareable across threads.
class LintSession {
public:
  explicit LintSession(const LintRequest &Request);
  ~LintSession();

  /// Lints one file (every compile command the database has for it); a file
  /// clang cannot parse yields compiler errors. With PchPath, the file is
  /// parsed against that precompiled header of its leading includes. With
  /// Project, calls of functions other files define read their facts, and
  /// the result holds the file's own.
  FileResult lintFile(const clang::tooling::CompilationDatabase &Database,
                      llvm::StringRef File, llvm::StringRef PchPath = "",
                      const ProjectFacts *Project = nullptr);

  /// The file's compile command as lintFile runs it (after .clang-tidy's
  /// ExtraArgs, without plugins); none unless the database has exactly one.
  std::optional<clang::tooling::CompileCommand>
  adjustedCommand(const clang::tooling::CompilationDatabase &Database,
                  llvm::StringRef File);

  /// The clang-tidy options in force for a file, as YAML (for cache keys).
  std::string optionsText(llvm::StringRef File);

  /// Prints findings as clang does: location, message, source excerpt, notes.
  void printText(const std::vector<Finding> &Findings);

  /// The names of the checks that would run for a file (for errors on bad
  /// --checks globs).
  std::vector<std::string> enabledChecks(llvm::StringRef File);

private:
  /// .clang-tidy's ExtraArgsBefore and ExtraArgs for the file.
  clang::tooling::CommandLineArguments
  withOptionsArguments(const clang::tooling::CommandLineArguments &Args,
                       llvm::StringRef File);

  std::unique_ptr<clang::tidy::ClangTidyContext> Context;
  /// One set of diagnostic IDs for every file of the session: the context
  /// maps each check's custom diagnostic ID to the check's name once, so a
  /// fresh set per file would give the next file's findings the names of
  /// the previous file's checks.
  llvm::IntrusiveRefCntPtr<clang::DiagnosticIDs> DiagnosticIds;
};

} // namespace torchtidy

#endif // TORCHTIDY_TOOLS_TORCHTIDY_LINTSESSION_H
