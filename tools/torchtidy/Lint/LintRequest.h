//===--- LintRequest.h - What the user asked the lint for -------*- C++ -*-===//
//
// The options of one run, as every part of the lint reads them: the session
// its checks, the scheduler its workers, cache, shared PCH and project.
// Apart from both, and with the cache and the shared PCH only named, so
// that the session, which the fuzz target runs alone, needs neither.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_TOOLS_TORCHTIDY_LINTREQUEST_H
#define TORCHTIDY_TOOLS_TORCHTIDY_LINTREQUEST_H

#include "Frontend/CheckSelection.h"

#include <optional>
#include <string>

namespace torchtidy {

class ProjectFacts;
class ResultCache;
class SharedPrefixPch;
struct LintRunStats;

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

} // namespace torchtidy

#endif // TORCHTIDY_TOOLS_TORCHTIDY_LINTREQUEST_H
