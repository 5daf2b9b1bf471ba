//===--- SharedPrefixPch.h - One parse of LibTorch per project --*- C++ -*-===//
//
// Parsing <torch/torch.h> is most of what linting a LibTorch file costs, and
// every file of a project parses it again. Translation units that start with
// the same system includes under the same compile flags share one
// precompiled header of that prefix: built once per group, kept in the cache
// directory, and parsed against by each unit of the group.
//
// Sharing never changes a finding:
// - the prefix is the run of `#include <...>` lines before any other token,
//   up to LibTorch's last, and a prefix that reaches a header outside the
//   system include paths is not shared (no check reports in system headers; a
//   user header inside a PCH would be skipped by the checks);
// - a unit whose command line already force-includes something (-include,
//   -include-pch, -imacros) or has several commands is parsed as before;
// - a unit that does not parse against the PCH is parsed again without it.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_TOOLS_TORCHTIDY_SHAREDPREFIXPCH_H
#define TORCHTIDY_TOOLS_TORCHTIDY_SHAREDPREFIXPCH_H

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Chrono.h"

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace torchtidy {

/// The part of a source file's start that units share: its leading
/// `#include <...>` directives (before any other token, comments and blank
/// lines aside) up to and including the last of LibTorch's headers, one per
/// line. Empty when the file does not start with them. Ending at LibTorch
/// keeps the prefix a fact of the file alone (the same every run, so a kept
/// PCH is found again), and shared by files that go on to include
/// different standard headers.
std::string sharedPrefixOf(llvm::StringRef Source);

/// The compile command of a unit as the lint will run it, reduced to what
/// decides whether two units may share a prefix: no input file, no output or
/// dependency-file options. None when the unit may not share (several
/// commands, forced includes, a language other than C++).
std::optional<std::vector<std::string>>
shareableFlags(const clang::tooling::CompileCommand &Command);

/// The groups of one run and their precompiled headers.
class SharedPrefixPch {
public:
  /// PCHs and their headers are kept in Directory (created when needed);
  /// ToolIdentity is part of every group's key, as in the result cache.
  SharedPrefixPch(std::string Directory, std::string ToolIdentity);
  ~SharedPrefixPch();

  /// Puts a unit about to be linted in its group, if it may share: Command
  /// is its compile command after torchtidy's argument adjusters.
  void add(llvm::StringRef File, const clang::tooling::CompileCommand &Command);

  /// The groups whose PCH is worth preparing for this run: the last one
  /// built is still current, or more units share it than there are workers.
  std::vector<size_t> plan(unsigned Jobs);

  /// Makes the group's PCH ready: reuses a current one, else builds it if
  /// plan() allowed. Thread-safe for distinct groups; wakes the units
  /// waiting for it.
  void prepare(size_t Group);

  /// The PCH a unit is parsed against, and the files it was built from (the
  /// unit's result depends on them).
  struct Prefix {
    std::string PchPath;
    std::vector<std::string> Inputs;
  };
  /// File's group's PCH; null when there is none. A unit of a group that
  /// plan() chose waits until the group is prepared: against the PCH a unit
  /// costs a small share of a parse of its own (docs/README.md), and the
  /// wait is at most one build. Call after every chosen group's prepare()
  /// has been started, as the runs do (groups first), or it may wait for
  /// ever.
  const Prefix *prefixFor(llvm::StringRef File);

  /// What the run did, for --cache-stats.
  unsigned built() const { return Built; }
  unsigned reused() const { return Reused; }
  unsigned notShareable() const { return NotShareable; }
  unsigned unitsParsedAgainstPch() const { return UnitsAgainstPch; }
  void countUnitParsedAgainstPch() { ++UnitsAgainstPch; }

  /// How the last build of a group's prefix ended.
  enum class Outcome { Pch, UserHeader, Failed };

private:
  struct Group;
  std::string pathOf(const Group &G, llvm::StringRef Extension) const;
  /// The recorded outcome, while no file the build read has changed.
  std::optional<Outcome> lastOutcome(Group &G) const;
  bool build(Group &G);
  /// Removes all but the few most recently used PCHs of the directory.
  void pruneLeastRecentlyUsed();

  std::string Directory;
  std::string ToolIdentity;
  llvm::sys::TimePoint<> RunStart;
  std::vector<std::unique_ptr<Group>> Groups;
  std::map<std::string, size_t> GroupOfKey;
  std::map<std::string, size_t, std::less<>> GroupOfFile;
  std::atomic<unsigned> Built{0}, Reused{0}, UnitsAgainstPch{0};
  std::mutex PreparedLock;
  std::condition_variable PreparedChanged;
  unsigned NotShareable = 0;
};

} // namespace torchtidy

#endif // TORCHTIDY_TOOLS_TORCHTIDY_SHAREDPREFIXPCH_H
