//===--- UnitAnalysis.h - What the analysis knows of one unit ---*- C++ -*-===//
//
// Every check asks about the same functions and classes of a translation
// unit, and a function's analysis asks about the functions it calls. Each
// question is answered once per unit and the answer kept: a function's
// device flow and its summary for callers, what a module class registers,
// which fields a device-owning class moves, and what the unit read of its
// project's facts.
//
// Every one of those answers points into the unit's AST. So a unit's
// answers have one owner, UnitAnalysis, which lives exactly as long as the
// unit's ASTContext: it is created on the first question about the unit and
// destroyed with the ASTContext (a deallocation callback registered with
// it), whatever checks ran and whichever front-end runs them. An answer can
// never outlive its AST and be given for a later unit's declaration at a
// reused address.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_ANALYSIS_UNITANALYSIS_H
#define TORCHTIDY_ANALYSIS_UNITANALYSIS_H

#include "Analysis/CallerContext.h"
#include "Analysis/DeviceFlow.h"
#include "Analysis/DeviceOwners.h"
#include "Analysis/SummaryData.h"

#include "llvm/ADT/DenseMap.h"
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace torchtidy {

class ProjectFacts;
struct ModuleMembers;

/// A chain of helpers calling helpers is summarised this deep, no deeper.
constexpr unsigned MaxSummaryNesting = 8;

class UnitAnalysis {
public:
  /// The state of Ctx's translation unit, created on first use. It reads
  /// the project facts set for this thread (useProjectFacts) when created.
  static UnitAnalysis &of(const clang::ASTContext &Ctx);
  /// How many translation units have state now: one per live ASTContext
  /// that was asked about.
  static size_t liveUnitCount();

  ~UnitAnalysis();
  UnitAnalysis(const UnitAnalysis &) = delete;
  UnitAnalysis &operator=(const UnitAnalysis &) = delete;

  /// The device-flow result of a function of this unit.
  const DeviceFlowResult &deviceFlowOf(const clang::FunctionDecl *Function);

  /// What every call of a function of this unit passes it (CallerContext.h),
  /// from its callers' own device flow; null when those calls are not all
  /// the calls the program makes, or the chain of callers recurses or is
  /// too deep to follow.
  const CallerContext *callerContextOf(const clang::FunctionDecl *Function);

  /// Whether code of the main file may take a module out of training mode;
  /// where none does, every module stays in it and is_training() is true.
  bool mayLeaveTrainingMode();

  /// Whether a function of this unit runs a fixed number of times in a run
  /// of the program (CallSiteIndex::runsAFixedNumberOfTimes): `main`, or a
  /// demo that `main` calls once, not a step of a loop over data.
  bool runsAFixedNumberOfTimes(const clang::FunctionDecl *Function);

  /// The module mode every call of a function of this unit is made in
  /// (CallSiteIndex::modeOnEntry).
  ModeSwitch modeOnEntry(const clang::FunctionDecl *Function);

  /// A call of a function of this unit in a loop of its caller, when every
  /// call of it is in one (CallSiteIndex::loopCallOf); null otherwise.
  const CallSite *loopCallOf(const clang::FunctionDecl *Function);

  /// The summary of a function defined in this unit, for its callers. Null
  /// while that function's own summary is being computed (recursion) and
  /// past a nesting depth of MaxSummaryNesting, where callers fall back to
  /// assuming the worst.
  const FunctionSummary *summaryOf(const clang::FunctionDecl *Definition);

  /// What the module class's own code in this unit does with its members
  /// (ModuleMembers.h); null for a class that is no module definition.
  const ModuleMembers *moduleMembersOf(const clang::CXXRecordDecl *Class);

  /// The tensor fields that a non-module class's `to(Device)`, defined in
  /// this unit, moves (DeviceOwners.h); empty for any other class.
  const MovedFields &movedFieldsOf(const clang::CXXRecordDecl *Class);

  /// What a plain class's field holds at the start of each of its methods
  /// (ClassFields.h); none where that is not known, or while it is being
  /// computed.
  std::optional<AbstractValue> classFieldValueOf(const clang::FieldDecl *Field);
  /// What an object that a plain class holds in Object holds in its Field at
  /// the start of each of the class's methods (ClassFields.h); none where
  /// that is not known, or while it is being computed.
  std::optional<AbstractValue>
  memberObjectFieldValueOf(const clang::FieldDecl *Object,
                           const clang::FieldDecl *Field);

  /// The project's summary of a function this unit calls but does not
  /// define, in terms of Declaration's parameters; null when there is none.
  /// Recorded as used.
  const FunctionSummary *
  projectSummaryOf(const clang::FunctionDecl *Declaration);

  /// What the calls that the project's other units make of a function this
  /// unit defines pass it: per unit, per parameter (none where unknown).
  /// Null when they are not known to be all the calls of it other than this
  /// unit's (ProjectFacts::callsOf), or when the function can be called
  /// other than by its name. Recorded as used.
  const std::vector<PassedArguments> *
  projectCallsOf(const clang::FunctionDecl *Function);

  /// Whether a module class holds parameters: what this unit shows
  /// (moduleHoldsParameters in Model/Modules.h), else, when that rests on a
  /// constructor in another file, what the unit that defines it says
  /// (recorded as used). None when neither knows.
  std::optional<ModuleParametersFact>
  moduleParametersOf(const clang::CXXRecordDecl *ModuleClass);

  /// What this unit provides its project: the summaries of the functions
  /// its main file defines that other units can call, whether the module
  /// classes whose constructors it defines hold parameters, and what its
  /// calls pass the functions it calls that other units define.
  std::map<std::string, std::string> providedFacts();

  /// What this unit's analysis read of the project's facts: per name, a
  /// digest of the fact (factDigest). Clears the record.
  std::map<std::string, std::string> takeUsedFacts();

  /// The files of other units that notes from their facts made this unit
  /// open; clears the record. Not inputs of the unit: what it took from
  /// them is in its used facts.
  std::vector<std::string> takeFilesOpenedForNotes();

private:
  UnitAnalysis(clang::ASTContext &Ctx, const ProjectFacts *Facts);
  void recordUsed(llvm::StringRef Name, std::string Digest);
  /// The name of this unit in the project: its main file's real path.
  llvm::StringRef unitName();
  /// Built on first use.
  const CallSiteIndex &callSites();
  /// The calls fact (writeCallsFact) of the calls the main file makes of a
  /// function another unit defines.
  std::string callsFactOf(const clang::FunctionDecl *Callee);

  clang::ASTContext &Ctx;

  /// Null while the result is being computed.
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<DeviceFlowResult>>
      Flows;
  std::unique_ptr<CallSiteIndex> CallSites;
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<CallerContext>>
      CallerContexts;
  /// Null while the summary is being computed.
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<FunctionSummary>>
      Summaries;
  unsigned SummaryNesting = 0;
  llvm::DenseMap<const clang::CXXRecordDecl *, std::unique_ptr<ModuleMembers>>
      Members;
  llvm::DenseMap<const clang::CXXRecordDecl *, MovedFields> Owners;
  /// None while being computed, and where not known.
  llvm::DenseMap<const clang::FieldDecl *, std::optional<AbstractValue>>
      ClassFieldValues;
  /// The same, per object field and field of that object.
  llvm::DenseMap<std::pair<const clang::FieldDecl *, const clang::FieldDecl *>,
                 std::optional<AbstractValue>>
      MemberObjectFieldValues;

  const ProjectFacts *Facts;
  std::optional<std::string> Name;
  /// Null: the project has no (readable) summary.
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<FunctionSummary>>
      ProjectSummaries;
  llvm::DenseMap<const clang::CXXRecordDecl *,
                 std::optional<ModuleParametersFact>>
      ProjectClasses;
  /// None where not known.
  llvm::DenseMap<const clang::FunctionDecl *,
                 std::optional<std::vector<PassedArguments>>>
      ProjectCalls;
  std::map<std::string, std::string> Used;
  std::vector<std::string> OpenedForNotes;
};

/// Sets the project facts that the translation units this thread analyses
/// from now on read (null: none). A front-end calls it before it parses a
/// unit; a unit keeps the facts it started with.
void useProjectFacts(const ProjectFacts *Facts);

// The questions the analysis and the checks ask, each answered by the unit
// that the declaration asked about belongs to.

/// UnitAnalysis::deviceFlowOf of Function's unit.
const DeviceFlowResult &deviceFlowOf(const clang::FunctionDecl *Function);

/// UnitAnalysis::summaryOf of Definition's unit.
const FunctionSummary *deviceFlowSummaryOf(const clang::FunctionDecl *Definition);

/// UnitAnalysis::projectSummaryOf of Declaration's unit.
const FunctionSummary *projectSummaryOf(const clang::FunctionDecl *Declaration);

/// Whether a submodule or tensor member of a module class is not registered
/// with it, as far as its unit shows: false for registered members, members
/// of classes whose constructors are not all seen, and fields that are
/// neither.
bool isUnregisteredModuleMember(const clang::FieldDecl *Field);
/// Whether Field is a submodule or tensor member that its module class
/// registers, as far as its unit shows.
bool isRegisteredModuleMember(const clang::FieldDecl *Field);

/// Whether Field is a tensor field of a class that is not a Module and whose
/// `to(Device)`, defined in its unit, assigns it a copy moved to the device
/// it was given.
bool movesWithItsObject(const clang::FieldDecl *Field);
/// Whether Class is such a class: it has at least one field that
/// movesWithItsObject().
bool isDeviceOwningClass(const clang::CXXRecordDecl *Class);

} // namespace torchtidy

#endif // TORCHTIDY_ANALYSIS_UNITANALYSIS_H
