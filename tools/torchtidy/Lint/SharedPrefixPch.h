//===--- SharedPrefixPch.h - One parse of LibTorch per project --*- C++ -*-===//
//
// Parsing <torch/torch.h> is most of what linting a LibTorch file costs, and
// every file of a project parses it again. Translation units that reach the
// same system includes first, through their own headers too, under the same
// flags for the system headers share one precompiled header of that prefix:
// built once per group, kept in the cache directory, and parsed against by
// each unit of the group.
//
// Sharing never changes a finding:
// - the prefix is the `#include <...>` lines met before any other token,
//   following the unit's own headers past include guards, up to LibTorch's
//   last; any other directive on the way ends it;
// - a prefix that reaches a header outside the system include paths is not
//   shared (no check reports in system headers; a user header inside a PCH
//   would be skipped by the checks);
// - a unit's own include folders are not in its group's flags, unless one
//   holds a header the prefix names; a unit with one that may hide a header
//   the PCH read is parsed whole;
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

/// The part of a source file's start that units share: the `#include <...>`
/// directives met before its first token that is not a directive, one per
/// line, up to and including the last of LibTorch's headers. The walk
/// follows includes of the project's headers, where the preprocessor looks
/// before the system folders: `#include "own.h"` found in the includer's
/// folder, QuoteDirs (the unit's -iquote folders) or AngleDirs (its -I
/// folders), `#include <own.h>` found in AngleDirs; past `#pragma once`,
/// include guards, an `#undef` of a name nothing defined (not the
/// compiler, CommandLineMacros or a guard), and, without Microsoft
/// extensions, the MSVC pragmas clang then ignores (`warning`, `region`,
/// `endregion`); and past a `#define` of a name nothing defined, which is
/// noted, not put in the prefix: a PCH built without it serves the unit
/// only if its headers never name it (SharedPrefixPch::prefixFor). A
/// quoted include found in none of them is looked for as `<...>`, as the
/// preprocessor does. Any other directive (a macro defined again or
/// undefined, a conditional, another pragma) ends it: what follows may
/// parse differently. Empty when no LibTorch header is met. Ending at
/// LibTorch keeps the prefix a fact of the file and its headers (the same
/// every run, so a kept PCH is found again), and shared by files that go on
/// to include different standard headers.
struct SharedPrefix {
  std::string Text;                             // the `#include <...>` lines
  std::vector<std::string> MacrosDefinedBefore; // before its last line
};
SharedPrefix sharedPrefixOf(llvm::StringRef File, llvm::StringRef Source,
                            llvm::ArrayRef<std::string> QuoteDirs,
                            llvm::ArrayRef<std::string> AngleDirs,
                            llvm::ArrayRef<std::string> CommandLineMacros,
                            bool MicrosoftExtensions);

/// A unit's compile command as it decides which units may share a prefix.
struct ShareableCommand {
  /// The command as the lint will run it, without the input file, output
  /// and dependency-file options; every include folder absolute and
  /// separate from its option.
  std::vector<std::string> Flags;
  /// The project's include folders (-I, -iquote, -idirafter), in order:
  /// where in Flags their option is.
  struct Folder {
    size_t Position;
    std::string Option;
    std::string Path;
  };
  std::vector<Folder> UserIncludeFolders;
  /// The names -D and -U give.
  std::vector<std::string> CommandLineMacros;
  /// Some other argument is a relative path: the working folder matters.
  bool DependsOnDirectory = false;
  /// -fms-extensions or -fms-compatibility, clang-cl or an MSVC target:
  /// clang acts on MSVC's pragmas (`#pragma warning`), which it otherwise
  /// ignores.
  bool MicrosoftExtensions = false;
};

/// None when the unit may not share (several commands, forced includes, a
/// language other than C++).
std::optional<ShareableCommand>
shareableCommand(const clang::tooling::CompileCommand &Command);

/// The groups of one run and their precompiled headers.
class SharedPrefixPch {
public:
  /// PCHs and their headers are kept in Directory (created when needed);
  /// ToolIdentity is part of every group's key, as in the result cache.
  /// KeptAcrossRuns: Directory outlives the run (it is the result cache's),
  /// so a PCH serves later runs too.
  SharedPrefixPch(std::string Directory, std::string ToolIdentity,
                  bool KeptAcrossRuns);
  ~SharedPrefixPch();

  /// Notes a unit about to be linted, if it may share: Command is its
  /// compile command after torchtidy's argument adjusters. plan() puts it in
  /// a group.
  void add(llvm::StringRef File, const clang::tooling::CompileCommand &Command);

  /// Groups the units added (each by the start of its prefix that a kept
  /// PCH has, else that most units share), then returns the groups whose
  /// PCH is worth preparing: the last one built is still current, or two
  /// or more units share it and it is kept for later runs (where each
  /// lint after an edit parses against it), or, for this run only, more
  /// units share it than there are workers.
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
  /// Whether prefixFor(File) would wait now: its group's PCH is being
  /// prepared.
  bool wouldWait(llvm::StringRef File);

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
  /// A unit add() accepted, until plan() puts it in a group.
  struct Unit {
    std::string File;
    std::string Directory;
    std::string FlagsKey; // the tool, the flags, and the folder if it matters
    std::vector<std::string> Flags;
    std::vector<std::string> Cuts; // starts of its prefix, shortest first
  };
  /// Puts each unit in the group of the start of its prefix that most units
  /// share.
  void group();
  std::string pathOf(const Group &G, llvm::StringRef Extension) const;
  /// The recorded outcome, while no file the build read has changed.
  std::optional<Outcome> lastOutcome(Group &G) const;
  bool build(Group &G);
  /// Removes all but the few most recently used PCHs of the directory.
  void pruneLeastRecentlyUsed();
  /// Whether Folder, one of a unit's own include folders the group's PCH was
  /// built without, holds a header named as one the PCH read is named
  /// relative to a folder the build searched. Thread-safe; remembered.
  bool mayHidePrefixHeader(size_t Group, const std::string &Folder);
  /// Whether the build of the group's PCH met Name (a macro's, as an
  /// identifier anywhere); true when that is not known. Thread-safe.
  bool buildMetName(size_t Group, llvm::StringRef Name);

  std::string Directory;
  std::string ToolIdentity;
  bool KeptAcrossRuns;
  llvm::sys::TimePoint<> RunStart;
  std::vector<Unit> Units;
  std::vector<std::unique_ptr<Group>> Groups;
  std::map<std::string, size_t> GroupOfKey;
  std::map<std::string, size_t, std::less<>> GroupOfFile;
  /// Per file, its own include folders left out of its group's flags.
  std::map<std::string, std::vector<std::string>, std::less<>> FoldersLeftOut;
  /// Per file, the macros it defines before its prefix ends.
  std::map<std::string, std::vector<std::string>, std::less<>>
      MacrosDefinedBefore;
  std::mutex IdentifiersLock;
  std::mutex HidingLock;
  std::map<std::pair<size_t, std::string>, bool> Hiding;
  std::atomic<unsigned> Built{0}, Reused{0}, UnitsAgainstPch{0};
  std::mutex PreparedLock;
  std::condition_variable PreparedChanged;
  unsigned NotShareable = 0;
};

} // namespace torchtidy

#endif // TORCHTIDY_TOOLS_TORCHTIDY_SHAREDPREFIXPCH_H
