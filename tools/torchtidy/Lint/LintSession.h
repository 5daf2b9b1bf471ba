//===--- LintSession.h - torchtidy over a compilation database --*- C++ -*-===//
//
// Runs the libtorch checks over translation units from a compilation database
// with clang-tidy's engine, so findings, NOLINT handling, .clang-tidy options
// and fix-its are exactly those of the clang-tidy module; the traversal is
// limited to the user's code, and results may come from a ResultCache.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_TOOLS_TORCHTIDY_LINTSESSION_H
#define TORCHTIDY_TOOLS_TORCHTIDY_LINTSESSION_H

#include "LintResult.h"

#include "Analysis/ProjectFacts.h"
#include "Frontend/CheckSelection.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace torchtidy {

class ResultCache;
class SharedPrefixPch;

/// How many times a project run lints one file at most while the project's
/// facts settle.
constexpr unsigned MaxLintsPerFile = 4;

/// What a run did, for --cache-stats and benchmarks.
struct LintRunStats {
  unsigned Linted = 0;      ///< Files linted (not taken from the cache).
  unsigned LintedAgain = 0; ///< Of those, lints repeated for changed facts.
  /// Files whose facts from other files had still not settled when they
  /// had been linted as often as a run lints a file (a cycle of files
  /// whose summaries keep changing).
  std::vector<std::string> Unsettled;
};

/// What the user asked for: which checks, how many workers, which cache.
struct LintRequest {
  std::optional<CheckLevel> Level;
  std::string Checks;
  unsigned Jobs = 1;
  ResultCache *Cache = nullptr; // null: no cache
  /// Units that start alike parse against one PCH of that start (null: each
  /// parses everything itself).
  SharedPrefixPch *Sharing = nullptr;
  /// The project's facts (ProjectFacts.h): the run's files are analysed with
  /// them and add their own, replacing what an index said of them. Null:
  /// each file is linted alone.
  ProjectFacts *Project = nullptr;
  /// Filled in when given.
  LintRunStats *Stats = nullptr;
};

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

/// Lints the files with Request.Jobs worker threads, each with its own
/// session, taking unchanged files from Request.Cache; Progress is called
/// after each file (under a lock). With Request.Project, each file is
/// analysed with the facts the others provide, and linted again while a fact
/// it used changes. The result does not depend on Jobs, on the order files
/// are linted in or on the cache: it is sorted by file, offset and check,
/// without duplicates.
std::vector<Finding> lintInParallel(
    const LintRequest &Request,
    const clang::tooling::CompilationDatabase &Database,
    const std::vector<std::string> &Files,
    llvm::function_ref<void(size_t Done, size_t Total, llvm::StringRef File)>
        Progress);

} // namespace torchtidy

#endif // TORCHTIDY_TOOLS_TORCHTIDY_LINTSESSION_H
