//===--- ProjectFacts.h - Facts from a project's other files ----*- C++ -*-===//
//
// A compilation database is one project: a call in train.cpp of a function
// defined in model.cpp or utils.cpp need not be a black box. Each
// translation unit provides the device summary of every function it defines
// with external linkage (SummaryData.h), keyed by the function's mangled
// name: the linker's name for it, the same in every translation unit. A unit
// that calls a function it only declares reads the project's summary of it,
// and records which one it read, so that a driver can lint it again when
// that fact changes (tools/torchtidy/LintRun.cpp).
//
// Without project facts (the single-file front-ends, or a function no unit
// of the project defines) such a call stays what it was: unknown.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_ANALYSIS_PROJECTFACTS_H
#define TORCHTIDY_ANALYSIS_PROJECTFACTS_H

#include "Analysis/DeviceFlow.h"

#include "llvm/ADT/StringMap.h"
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

/// The summaries every unit of a project provides. Units analysed in
/// parallel read it while others' results are added: it is thread-safe.
class ProjectFacts {
public:
  /// Sets what the unit numbered Unit provides, replacing what it provided
  /// before (a unit linted again).
  void provide(size_t Unit,
               const std::map<std::string, std::string> &Summaries);
  /// The summary of a mangled name: none when no unit defines it, or when
  /// units define it differently (two programs of one database that each
  /// have a `train()`): which one a call runs is not known.
  std::optional<std::string> summaryOf(llvm::StringRef Name) const;
  /// Whether an analysis that read these facts would now read others.
  bool changedSince(const UnitFacts &Unit) const;

private:
  mutable std::mutex Lock;
  /// Per mangled name, per providing unit, the summary.
  llvm::StringMap<std::map<size_t, std::string>> Providers;
  std::map<size_t, std::vector<std::string>> NamesOf;
};

/// A short digest of a summary's text; empty for none.
std::string factDigest(const std::optional<std::string> &Summary);

/// The mangled name a function's summary goes by; none for what another
/// unit cannot call by name (internal linkage, templates, inline functions
/// that every includer defines itself).
std::optional<std::string> projectName(const clang::FunctionDecl *F);

/// Sets the facts that this thread's translation units are analysed against
/// (null: none) and starts a new record of what they use.
void useProjectFacts(const ProjectFacts *Facts);

/// The project's summary of a function this unit calls but does not define,
/// in terms of Declaration's parameters; null when there is none. Recorded
/// as used.
const FunctionSummary *projectSummaryOf(const clang::FunctionDecl *Declaration,
                                        clang::ASTContext &Ctx);

/// The summaries of the functions this unit defines in its main file that
/// other units can call (computed now, and cached for the unit's checks).
std::map<std::string, std::string> providedSummaries(clang::ASTContext &Ctx);

/// What the unit's analysis used since useProjectFacts; clears the record.
std::map<std::string, std::string> takeUsedFacts();

/// The files of other units that notes from their summaries made this unit
/// open, since useProjectFacts; clears the record. Not inputs of the unit:
/// what it took from them is in its used facts.
std::vector<std::string> takeFilesOpenedForNotes();

/// Forgets the summaries read for the current unit (its AST is about to go).
void forgetProjectSummaries();

} // namespace torchtidy

#endif // TORCHTIDY_ANALYSIS_PROJECTFACTS_H
