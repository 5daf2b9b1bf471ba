//===--- ProjectFacts.h - Facts from a project's other files ----*- C++ -*-===//
//
// A compilation database is one project: a call in train.cpp of a function
// defined in model.cpp or utils.cpp need not be a black box. Each
// translation unit provides the device summary of every function it defines
// with external linkage (SummaryData.h), keyed by the function's mangled
// name: the linker's name for it, the same in every translation unit; and,
// for each module class whose constructor it defines, whether that class
// holds parameters, keyed by the class's mangled name. A unit
// that calls a function it only declares reads the project's summary of it,
// and records which one it read (UnitAnalysis.h), so that a driver can lint
// it again when that fact changes (tools/torchtidy/Lint/LintScheduler.cpp).
//
// This file is the project's store of facts and how they are named; what a
// unit provides and reads is the unit's analysis (UnitAnalysis.h).
//
// The other direction, callers' context (CallerContext.h): each unit also
// provides, per function of another unit that it calls, what its calls pass
// (a calls fact, named "calls:" and the function's mangled name), and the
// unit that defines the function joins them. That they are all the calls
// the program makes holds only when the project is the whole program (every
// unit of the compilation database is linted, or the index was written from
// all of them) and every unit parsed: a unit with an error in it says so
// (IncompleteUnitFact), and what any unit's calls pass is then unknown.
//
// The single-file front-ends (the clang-tidy module, the compiler plugin)
// read the same facts from an index that `torchtidy --index` wrote. Without
// project facts, or for a function no unit of the project defines, such a
// call stays what it was: unknown.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_ANALYSIS_PROJECTFACTS_H
#define TORCHTIDY_ANALYSIS_PROJECTFACTS_H

#include "clang/AST/DeclCXX.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace torchtidy {

/// What one translation unit gives its project, and what it took from it.
struct UnitFacts {
  /// Per mangled name, the summary of a function the unit defines.
  std::map<std::string, std::string> Summaries;
  /// Per mangled name the unit's analysis asked for, a digest of the
  /// summary it got (factDigest), empty when the project had none.
  std::map<std::string, std::string> Used;
};

/// The prefix of a calls fact's name.
inline constexpr llvm::StringLiteral CallsFactPrefix = "calls:";
/// The fact a unit provides when its parse had errors: it may make calls its
/// facts do not show.
inline constexpr llvm::StringLiteral IncompleteUnitFact = "unit:incomplete";

/// The summaries every unit of a project provides, each unit named by the
/// real path of its main file. Units analysed in parallel read it while
/// others' results are added: it is thread-safe.
class ProjectFacts {
public:
  /// Sets what the unit of File provides, replacing what it provided before
  /// (a unit linted again, or one an index had).
  void provide(llvm::StringRef File,
               const std::map<std::string, std::string> &Summaries);
  /// The summary of a mangled name: none when no unit but ExceptFile's
  /// defines it, or when units define it differently (two programs of one
  /// database that each have a `train()`): which one a call runs is not
  /// known.
  std::optional<std::string> summaryOf(llvm::StringRef Name,
                                       llvm::StringRef ExceptFile = "") const;
  /// Every unit's calls fact of a mangled name, in the order of the units'
  /// names: none of them when no unit calls the function. None at all when
  /// these are not all the units of the program, or one of them did not
  /// parse. (The unit that defines the function provides no calls fact of
  /// it: it sees its own calls.)
  std::optional<std::vector<std::string>> callsOf(llvm::StringRef Name) const;
  /// Says that the units that provide facts are, or are not, every unit of
  /// the program (callsOf).
  void setWholeProgram(bool Whole);

  /// Whether an analysis that read these facts would now read others.
  bool changedSince(const UnitFacts &Unit) const;
  /// The units that provide a fact of this name.
  std::vector<std::string> providersOf(llvm::StringRef Name) const;
  /// How many functions and classes have a fact here, and how many units
  /// provided facts.
  size_t factCount() const;
  size_t unitCount() const;

  /// The index of a project (`torchtidy --index`): every unit's summaries,
  /// as JSON, for the front-ends that see one file at a time.
  void writeIndex(llvm::raw_ostream &Out) const;
  /// Adds the units of an index that writeIndex wrote; an error says why a
  /// file is not one.
  llvm::Error readIndex(llvm::StringRef Path);

private:
  mutable std::mutex Lock;
  /// Per mangled name, per providing unit, the summary.
  llvm::StringMap<std::map<std::string, std::string>> Providers;
  std::map<std::string, std::vector<std::string>> NamesOf;
  bool WholeProgram = false;
};

/// The name of the unit whose main file is at Path: its real path (Path
/// itself when it has none).
std::string projectUnitName(llvm::StringRef Path);

/// The index at Path, read once per process for every translation unit
/// that names it (a clang-tidy CheckOption, a compiler plugin argument);
/// null, with Error set, when it cannot be read.
const ProjectFacts *projectFactsIndex(llvm::StringRef Path, std::string &Error);

/// A short digest of a summary's text; empty for none.
std::string factDigest(const std::optional<std::string> &Summary);
/// The digest of what callsOf gave: none, or the facts, one a line.
std::string factDigest(const std::optional<std::vector<std::string>> &Calls);

/// The mangled name a function's summary goes by; none for what another
/// unit cannot call by name (internal linkage, templates, inline functions
/// that every includer defines itself).
std::optional<std::string> projectName(const clang::FunctionDecl *F);

/// The name a module class's facts go by: "module:" and the mangled name of
/// its type (the name its type_info has), the same in every unit; none for
/// a class other units cannot name.
std::optional<std::string> moduleFactName(const clang::CXXRecordDecl *Class);

} // namespace torchtidy

#endif // TORCHTIDY_ANALYSIS_PROJECTFACTS_H
