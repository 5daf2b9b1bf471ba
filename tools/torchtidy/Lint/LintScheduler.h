//===--- LintScheduler.h - Which file is linted when ------------*- C++ -*-===//
//
// Runs the libtorch checks over the translation units of a compilation
// database: each worker thread lints with a LintSession of its own, results
// of unchanged files come from the ResultCache, units that start alike wait
// for their shared prefix's PCH, and in a project a file is linted again
// while the facts it read from other files change, until they settle.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_TOOLS_TORCHTIDY_LINTSCHEDULER_H
#define TORCHTIDY_TOOLS_TORCHTIDY_LINTSCHEDULER_H

#include "LintRequest.h"
#include "LintResult.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>
#include <vector>

namespace torchtidy {

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

#endif // TORCHTIDY_TOOLS_TORCHTIDY_LINTSCHEDULER_H
