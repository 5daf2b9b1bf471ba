//===--- DeviceFlowPass.h - The dataflow pass behind DeviceFlow.h -*- C++
//-*-===//
//
// Private to lib/Analysis: the pass object whose implementation is split
// over DeviceFlow.cpp (fixpoint, transfer, expressions), DeviceFlowCalls.cpp
// (what calls do to values), DeviceFlowSummaries.cpp (calls into functions
// of the same TU, and what a function knows on entry) and
// DeviceFlowFindings.cpp (sites for the checks). Checks use DeviceFlow.h
// only.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_ANALYSIS_DEVICEFLOWPASS_H
#define TORCHTIDY_ANALYSIS_DEVICEFLOWPASS_H

#include "Analysis/CallerContext.h"
#include "Analysis/ClassFields.h"
#include "Analysis/DeviceFlow.h"
#include "Analysis/FunctionFacts.h"
#include "Model/TorchApi.h"

#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

namespace torchtidy {
namespace detail {

using clang::ASTContext;
using clang::CallExpr;
using clang::CFGBlock;
using clang::CXXConstructExpr;
using clang::DeclRefExpr;
using clang::Expr;
using clang::FunctionDecl;
using clang::MemberExpr;
using clang::Stmt;
using clang::ValueDecl;
using clang::VarDecl;

using State = llvm::DenseMap<StorageKey, AbstractValue>;

/// Blocks may be visited this many times each, on average, before the
/// function is given up on (reported clean) instead of running long.
constexpr unsigned VisitsPerBlockCap = 32;
/// Expression nesting deeper than this evaluates to "unknown".
constexpr unsigned MaxEvalDepth = 256;
/// Paths into handlers followed per function (distinct states before a
/// throw); the rest are not followed.
constexpr unsigned MaxThrowPaths = 8;

/// Report: find the sites in one function for the checks. Summarize: say
/// what the function does for its callers (DeviceFlow.h, FunctionSummary),
/// with its parameters standing for the caller's arguments.
enum class PassMode { Report, Summarize };

class DeviceFlowPass {
public:
  DeviceFlowPass(const FunctionDecl *Function, ASTContext &Ctx, PassMode Mode);

  DeviceFlowResult run();
  FunctionSummary summarize();

private:
  /// Iterates to the fixpoint, then walks every block once more with
  /// FinalWalk set. Returns the state at the function's exit, if reached, or
  /// nothing when the iteration cap was hit. Reporting, then follows the
  /// paths on which a LibTorch error is thrown and caught (followThrowPaths).
  std::optional<State> solve(bool &GaveUp);
  /// The fixpoint from Start, entered in StartState, and the final walk of
  /// every block it reaches; In is what each block is entered in. False
  /// when the iteration cap was hit.
  bool iterateFrom(const clang::CFG &Graph, const CFGBlock &Start,
                   State StartState, std::vector<std::optional<State>> &In);
  /// Reporting, in the final walk of the paths on which nothing throws:
  /// before E is evaluated, where a handler here catches what E may throw,
  /// keeps the state as one path into that handler (one per distinct state,
  /// at most MaxThrowPaths).
  void noteThrowPoint(const Expr *E);
  /// Follows each path noteThrowPoint kept from its handler on, and keeps
  /// the first new mixed-device site of each (ThrowPathSites).
  void followThrowPaths(const clang::CFG &Graph);

  // Transfer.
  /// The successor a branch never takes: the evaluation side of an `if
  /// (is_training())` in a unit that never takes a module out of training
  /// mode. Null for any other block.
  const clang::CFGBlock *untakenSuccessor(const clang::CFGBlock &Block);
  void transferBlock(const CFGBlock &Block, State &S);
  void transferDecl(const VarDecl *Var);
  /// A constructor's member initialiser: the field starts as initialised.
  void transferInitializer(const clang::CXXCtorInitializer *Init);
  /// `ReplayBuffer buffer(capacity, device)`, `memory_(capacity)` in a
  /// constructor's initialisers: the new object's fields, kept under Owner
  /// (objectFieldsOwner), are what its constructor's summary leaves in them.
  /// Adds to the caller's containers what the callee's summary says it
  /// appends to them (FunctionSummary::Append).
  void applyAppends(const CallExpr *Call, const FunctionDecl *Callee,
                    const FunctionSummary &Summary,
                    llvm::ArrayRef<AbstractValue> Args,
                    llvm::StringRef CallSpelling);
  void applyConstructorEffects(const ValueDecl *Owner,
                               const ObjectConstruction &Construction);
  /// `memory_ = ReplayMemory(256, 4)`, `a = b` of a plain class's objects:
  /// the target's fields are the new object's, or the source's.
  void assignObject(const Expr *Target, const Expr *Source);
  /// Code this function cannot see may have changed the object E names:
  /// what its fields hold is no longer known.
  void forgetFieldsOf(const Expr *Object);
  /// Where Iterator is a writable iterator of a container of tensors
  /// (`v.begin()`, `v.data()`), forgets what the container holds: code given
  /// it may write the elements.
  void forgetContainerWrittenThrough(const Expr *Iterator);
  /// Every tracked field of the object kept under Owner becomes unknown.
  void forgetFieldsKeptUnder(const ValueDecl *Owner);
  /// An expression clang could not compile may do anything to what it
  /// names: each variable, member and object field in it becomes unknown.
  void forgetWhatErrorTouches(const Expr *E);
  AbstractValue eval(const Expr *E);
  AbstractValue evalUncached(const Expr *E);
  AbstractValue evalDeclRef(const DeclRefExpr *Ref);
  AbstractValue evalMember(const MemberExpr *Member);
  AbstractValue evalConstruct(const CXXConstructExpr *Construct);
  AbstractValue evalCall(const CallExpr *Call);
  AbstractValue evalOp(const CallExpr *Call, TorchCallKind Kind);
  AbstractValue evalFactory(const CallExpr *Call, TorchCallKind Kind);
  AbstractValue evalTensorMigration(const CallExpr *Call);
  AbstractValue evalModuleMigration(const CallExpr *Call);
  /// torch::save / torch::load of a module: a load restores the module
  /// where this function saved the same file from, or onto load's device.
  AbstractValue evalCheckpoint(const CallExpr *Call,
                               const CheckpointCall &Checkpoint);
  AbstractValue evalModuleForward(const CallExpr *Call);
  /// `data_parallel(module, input, ...)`: the output on its output device,
  /// and the module moved where one device (or every CUDA device on a
  /// one-GPU machine) moves it (Model/Modules.h).
  AbstractValue evalDataParallel(const CallExpr *Call,
                                 const DataParallelCall &Parallel);
  AbstractValue newModuleOnHost(const Expr *Creation);
  /// New options built from Args: where the tensors of the options among
  /// them are (a copy holds what its source holds); unset when none.
  AbstractValue optionsFrom(llvm::ArrayRef<const Expr *> Args);
  /// A setter or getter of nn options: `.weight(w)` gives them w to hold.
  AbstractValue evalOptionsCall(const clang::CXXMemberCallExpr *Call);
  void forgetWhatCalleeMayChange(const CallExpr *Call);
  AbstractValue aliasModule(const Expr *Source);
  AbstractValue evalAssignment(const Expr *Target, const Expr *Source,
                               const Expr *Site);
  void store(const Expr *Target, const AbstractValue &Value);
  /// Adds Element to the container Container names: it holds both what it
  /// held and Element. Summarising, a field's container that still holds
  /// what it held on entry keeps that placeholder, and the element goes to
  /// the summary's appends (FunctionSummary::Append).
  void appendTo(const Expr *Container, const AbstractValue &Element);
  /// appendTo for the container stored at Key, which holds Held now.
  void appendAt(StorageKey Key, const AbstractValue &Held,
                const AbstractValue &Element);
  /// The element of a container of tensors that the range-for declaring
  /// LoopVar binds on each iteration, where the analysis knows it.
  std::optional<AbstractValue> rangeForElement(const VarDecl *LoopVar);
  /// The value of an object of a class that holds tensors
  /// (isTensorRecordType), as a container's element holds it: a tuple of
  /// its fields, by field index. Built from a braced initialiser, or from
  /// the fields the analysis follows of a variable; none otherwise.
  std::optional<AbstractValue> recordValueOf(const Expr *E);
  /// Gives Owner's fields the values of Object's elements (recordValueOf).
  void setFieldsFrom(const ValueDecl *Owner, const AbstractValue &Object);

  // Summaries (DeviceFlowSummaries.cpp).
  /// Where a parameter, or a field of `this`, is before the function assigns
  /// it, when the function's kind says so; unknown otherwise.
  std::optional<AbstractValue> entryValue(const ValueDecl *D) const;
  /// What storage that existed before the function (a parameter, a field of
  /// `this`, a global or a captured variable) holds while the function has
  /// not stored to it, as a read of it finds; none for the function's own
  /// variables.
  std::optional<AbstractValue> valueBeforeStores(StorageKey Key) const;
  /// A device parameter, or a device variable a lambda captured: chosen
  /// outside this function, on whichever device, and the tensors it places
  /// stay together. None for any other declaration.
  std::optional<AbstractValue> deviceChosenOutside(const clang::ValueDecl *D) const;
  /// The function a call runs and its summary: this TU's own when it
  /// defines the function, else the project's (ProjectFacts.h). The
  /// summary's parameters are the returned declaration's. Null when the call
  /// may run other code (a virtual method) or nobody summarised it.
  std::pair<const FunctionDecl *, const FunctionSummary *>
  calleeSummary(const CallExpr *Call);
  /// The effect of a call to a function of the user's, through its summary.
  /// False when there is none: then the caller assumes the worst.
  bool applySummary(const CallExpr *Call, llvm::ArrayRef<AbstractValue> Args,
                    AbstractValue &Result);
  /// A callee's value with its parameters replaced by this call's arguments.
  /// ExplainedByCallee: its history is the callee's, not an argument's.
  AbstractValue instantiate(const AbstractValue &CalleeValue,
                            const FunctionDecl *Callee, const CallExpr *Call,
                            llvm::ArrayRef<AbstractValue> Args,
                            bool &ExplainedByCallee);
  /// The same, for a call on Object (null for a free function or a
  /// constructor) whose parameters start at Args[FirstArgument].
  AbstractValue instantiateOn(const AbstractValue &CalleeValue,
                              const FunctionDecl *Callee, const Expr *Object,
                              unsigned FirstArgument,
                              llvm::ArrayRef<AbstractValue> Args,
                              bool &ExplainedByCallee);
  /// The declaration this function's state keeps the fields of the object
  /// E names under: a local object or parameter (`buffer`), or an object
  /// field of this method's own object (`memory_`), of a plain class. Null
  /// for anything else, `this` included (its fields are keyed alone).
  const ValueDecl *objectFieldsOwner(const Expr *Object) const;
  /// What the object a call is made on holds in Field: its value in this
  /// function's state, else what it held when the function started: for an
  /// object field of this method's object, memberObjectFieldOnEntry; for an
  /// object parameter, "whatever the caller's object held" (summarising) or
  /// what the callers' objects hold (reporting, CallerContext.h).
  std::optional<AbstractValue> fieldOfObject(const Expr *Object,
                                             const clang::FieldDecl *Field);
  /// What the object E names holds in each tracked field of its plain
  /// class, by fieldOfObject (unknown where that knows nothing); empty when
  /// E names no such object.
  ObjectFieldValues fieldsOfObject(const Expr *Object);
  /// What Object, a field of this method's own object, holds in its Field
  /// when the method starts: summarising, "whatever it held"; reporting, the
  /// class's fact (ClassFields.h). None in a constructor, or elsewhere.
  std::optional<AbstractValue>
  memberObjectFieldOnEntry(const clang::FieldDecl *Object,
                           const clang::FieldDecl *Field) const;
  void collectEffects(const State &AtExit);
  /// Summarising: a module parameter called with inputs on a device
  /// parameter becomes a requirement on the caller's module.
  void noteModuleInputs(const CallExpr *Call, const Operand &Module,
                        llvm::ArrayRef<Operand> Inputs);
  /// A call to a helper with ModuleInputs: passes each requirement on to this
  /// function's own summary, or, reporting, checks the module passed.
  void applyModuleInputRequirements(const CallExpr *Call,
                                    const FunctionDecl *Callee,
                                    const FunctionSummary &CalleeSummary,
                                    llvm::ArrayRef<AbstractValue> Args);
  /// Summarising: two tensor parameters combined in one op become a
  /// requirement on the caller's arguments.
  void noteCombinedParameters(const CallExpr *Call, llvm::StringRef CallName,
                              llvm::ArrayRef<Operand> Operands);
  /// A call to a helper with SameDeviceParameters: passes each requirement on
  /// to this function's own summary, or, reporting, checks the arguments.
  void applySameDeviceRequirements(const CallExpr *Call,
                                   const FunctionDecl *Callee,
                                   const FunctionSummary &CalleeSummary);
  /// A call to a helper with HostSyncs: passes each copy on to this
  /// function's own summary when the call is outside its loops, or,
  /// reporting, reports a copy in every iteration of a loop.
  void applyHostSyncs(const CallExpr *Call, const FunctionDecl *Callee,
                      const FunctionSummary &CalleeSummary,
                      llvm::ArrayRef<AbstractValue> Args);
  /// A call to a helper with Transfers: passes the first one on to this
  /// function's own summary, or, reporting, records it at the call unless
  /// the arguments say it stays on the host.
  void applyTransfers(const CallExpr *Call, const FunctionDecl *Callee,
                      const FunctionSummary &CalleeSummary,
                      llvm::ArrayRef<AbstractValue> Args);
  /// Summarising: a transfer off the host written in this function.
  void noteTransfer(const CallExpr *Call, const AbstractValue &Moved);
  /// Summarising a method: E, if it is `this` or `*this`, may be moved.
  void noteObjectMayMove(const Expr *E);

  /// Reporting with the callers' context: whether the callers check a
  /// module fed inputs so placed themselves. The module is still the
  /// callers' argument for a module parameter, the inputs are on the host or
  /// still where another parameter's argument is, and this function's
  /// summary states a ModuleInputRequirement on that parameter, which each
  /// call checks. (Inputs taken from an object the callers pass are known
  /// here only: the summary cannot state them.)
  bool isModuleCheckedByCallers(const Placement &Module,
                                const Placement &Inputs) const;

  // Findings.
  void checkOperands(const CallExpr *Call, llvm::StringRef CallName,
                     llvm::ArrayRef<Operand> Operands, const Operand *Module);
  void recordMixedSite(const CallExpr *Call, llvm::StringRef CallName,
                       Operand Stayed, Operand Other);
  /// One root cause, one finding: folds the mixed sites whose left-behind
  /// sides share their oldest known origin into one site's LaterUses.
  void mergeSitesOfOneRootCause();
  void recordAccumulation(const Expr *Site, const Expr *Accumulator,
                          const Expr *Added, bool IsContainer);
  void recordHostSync(const CallExpr *Call);
  /// The loop a copy to the host at Site runs in every iteration of: an
  /// innermost loop that calls no pass over data, outside a periodic
  /// branch. Null when there is none.
  const Stmt *hotLoopAround(const Stmt *Site);
  /// Whether Loop calls a helper of this TU that PassesOverData: then it is
  /// an epoch loop around a pass over data.
  bool callsPassOverData(const Stmt *Loop);
  void recordNonBlockingFromPageable(const CallExpr *Call,
                                     const AbstractValue &Source,
                                     const Placement &Target);

  // Helpers.
  /// The `.to(...)` that put a value where it is, as this function can
  /// spell it, if one did.
  std::optional<std::string> migrationOf(const AbstractValue &V) const;
  /// Whether a factory made V inside the innermost loop around Site.
  bool isCreatedInLoopAround(const AbstractValue &V, const Stmt *Site) const;
  Operand operandFor(const Expr *E);
  GradHistory resultGrad(const Stmt *Site,
                         llvm::ArrayRef<AbstractValue> Inputs) const;
  std::string spelling(const Expr *E) const;
  std::string callSuffix(const CallExpr *Call) const;
  AbstractValue deviceOf(const Expr *DeviceSpec);

  const FunctionDecl *Function;
  ASTContext &Ctx;
  PassMode Mode;
  FunctionFacts Facts;
  /// Set when Function is a method of a Module subclass (not a constructor):
  /// its tensor parameters and fields are on the module's device.
  const clang::CXXRecordDecl *ModuleOfMethod = nullptr;
  /// Set when Function is a constructor or method of a plain class of the
  /// user's (objectFieldsSummarized): a replay buffer, a sampler. Its summary
  /// says what it leaves in the object's tensor fields; summarising a method,
  /// each field stands for what the object holds when the call starts.
  const clang::CXXRecordDecl *PlainClassOfMethod = nullptr;
  /// Reporting: what every call of Function passes it, when those are all
  /// the calls the program makes (CallerContext.h); null otherwise.
  const CallerContext *Callers = nullptr;
  /// Set when Function is a method of a class that moves its own tensors
  /// with `to(Device)` (DeviceOwners.h), not a constructor: the fields that
  /// `to` moves are wherever the object was last moved.
  const clang::CXXRecordDecl *DeviceOwnerOfMethod = nullptr;
  bool FinalWalk = false;
  FunctionSummary Summary;
  State *Current = nullptr;
  llvm::DenseMap<const Expr *, AbstractValue> Memo;
  unsigned Depth = 0;
  bool Reporting = false;

  DeviceFlowResult Result;
  llvm::DenseSet<const Expr *> ReportedSites;
  /// Where this function's calls in `try` blocks go when they throw.
  ExceptionPaths Throws;
  /// A path into a handler: the throw, and the state before it.
  struct PendingThrow {
    ThrowPath Path;
    State Before;
  };
  std::vector<PendingThrow> PendingThrows;
  /// The path being followed by followThrowPaths; null on the paths on which
  /// nothing throws.
  const ThrowPath *OnThrowPath = nullptr;
  /// The sites followThrowPaths found, kept apart from Result.MixedSites
  /// until those are merged by root cause: a site on a throw path is its own.
  std::vector<MixedDeviceSite> ThrowPathSites;
  /// The helper calls already in Result.HelperTransfers.
  llvm::DenseSet<const CallExpr *> ReportedTransferCalls;
  /// Per example variable, the `.to(...)` one of its tensors was moved with.
  llvm::DenseMap<const ValueDecl *, std::string> SiblingMigrations;
  /// Per checkpoint file (the path as written), the modules this function
  /// saved to it: what a load of the same file restores.
  llvm::StringMap<AbstractValue> SavedCheckpoints;
  /// callsPassOverData's answers.
  llvm::DenseMap<const Stmt *, bool> EpochLoops;
  /// Modules already reported as passed, unmoved, to a helper that runs them
  /// on a device.
  llvm::DenseSet<StorageKey> ModulesLeftBehind;
  /// Summarising, in the final walk: what appendTo added to each container
  /// that held what it held on entry.
  llvm::DenseMap<StorageKey, AbstractValue> AppendedOnEntry;
  /// Variables bound by non-const reference to an element of a container
  /// of tensors (`for (auto &t : tensors)`, `auto &slot = v[i]`), with the
  /// container: what is stored in them is stored in it.
  llvm::DenseMap<const ValueDecl *, const Expr *> ElementReferences;
};

/// `this` or `*this`: the object a method works on.
bool isThisObject(const Expr *E);

/// The class whose object's tensor fields F's summary reports: F is a
/// constructor or instance method of a plain class of the user's
/// (isPlainUserClass in ClassFields.h). Null for any other function.
const clang::CXXRecordDecl *objectFieldsSummarized(const FunctionDecl *F);

/// Reporting with the callers' context: whether the callers check these two
/// tensors against each other themselves. Both are still the callers'
/// arguments for two of the function's tensor parameters, which its summary
/// states as a SameDeviceRequirement that each call checks: one finding, at
/// the call that passes them.
bool isCheckedByCallers(const Placement &A, const Placement &B);

/// Whether a copy to the host of a tensor so placed waits for a device. Only
/// a tensor the analysis places off the host (possibly, through the
/// program's device variable) pays for a device sync; an unknown one might
/// be a host tensor, for which these copies are cheap.
bool maySyncWithDevice(const Placement &Where);

} // namespace detail
} // namespace torchtidy

#endif // TORCHTIDY_ANALYSIS_DEVICEFLOWPASS_H
