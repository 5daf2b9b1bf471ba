//===--- DeviceFlow.h - Flow-sensitive device analysis ----------*- C++ -*-===//
//
// Runs the device lattice (Placement.h) over the CFG of one function and
// reports the sites the checks care about. The analysis decides what a site
// is (a missing migration or a plain device mix) so that one site gets one
// finding whichever checks are enabled.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_ANALYSIS_DEVICEFLOW_H
#define TORCHTIDY_ANALYSIS_DEVICEFLOW_H

#include "Analysis/ExceptionPaths.h"
#include "Analysis/FunctionFacts.h"
#include "Analysis/Placement.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace torchtidy {

/// A tensor or module taking part in a site, with what the analysis knew.
struct Operand {
  const clang::Expr *E = nullptr;
  std::string Spelling; ///< As written: "batch.target", "model".
  AbstractValue Value;
  bool IsModule = false;
};

/// An op, function or module call whose operands are on different devices on
/// some path.
struct MixedDeviceSite {
  const clang::CallExpr *Call = nullptr;
  std::string OpName; ///< "+", "torch::matmul", "criterion".
  bool IsModuleCall = false;
  /// The operand that did not follow (usually the host one) and the one it
  /// meets. For a module call one of them is the module.
  Operand Stayed, Other;
  /// Set when the site is explained by a missing migration: `Stayed` should
  /// have been moved like its sibling, with this call (".to(device)").
  std::optional<std::string> MissingMigration;
  /// Set when Call is a helper of this TU that calls a module passed to it
  /// with inputs somewhere else, inside it (however many helpers deep). One
  /// of Stayed and Other is the module: Stayed when it was left on the host,
  /// Other when the inputs were.
  bool ModuleCalledInHelper = false;
  /// Set when `Stayed` is not itself the tensor left behind but is computed
  /// from it (the output of a model fed a raw `batch.data`): the batch read
  /// that should carry MissingMigration.
  std::optional<Origin> UnmovedSource;
  /// Other sites of the same function where the same left-behind value (the
  /// same tensor or module, or a value computed from it) meets another
  /// device: one root cause, reported once (at its first use that a missing
  /// migration explains, else at its first use: this site), with these as
  /// notes. In source order.
  std::vector<const clang::CallExpr *> LaterUses;
  /// Set when the operands are apart only on a path where a LibTorch error
  /// is thrown and caught (a CPU fallback that leaves some tensors moved):
  /// the first op on that path that mixes them, reported once.
  std::optional<ThrowPath> OnThrowPath;
};

/// `x.to(d);` with its result thrown away (FunctionFacts::isDiscardedValue):
/// tensors are not moved in place.
struct DroppedMigration {
  const clang::CallExpr *Call = nullptr;
  Operand Object;
  std::string Migration; ///< ".to(device)"
  /// Whether `x = ` can be inserted in front: x is a non-const lvalue.
  bool Assignable = false;
  /// `(void)x.to(d)`: the cast that throws the result away, which the fix
  /// replaces.
  const clang::ExplicitCastExpr *VoidCast = nullptr;
};

/// A grad-carrying tensor kept across loop iterations.
struct RetainedGraphAccumulation {
  const clang::Expr *Site = nullptr;  ///< `total += loss`, `v.push_back(loss)`
  const clang::Expr *Added = nullptr; ///< `loss`
  const clang::Stmt *Loop = nullptr;
  std::string Accumulator; ///< "total"
  Operand AddedOperand;
  /// A running 0-dim total: fixed by adding a number (.item<double>());
  /// otherwise the kept tensor is fixed with .detach().
  bool IsScalarTotal = false;
};

/// A copy to the host (.item(), .cpu(), printing, ...) of a tensor that may
/// be on a device, in every iteration of a loop.
struct HostSyncInLoop {
  /// The copy, or the call of the helper that makes it.
  const clang::CallExpr *Call = nullptr;
  const clang::Stmt *Loop = nullptr;
  std::string What; ///< ".item()", "<<", "torch::nonzero"
  /// The tensor copied; inside the helper when there is one.
  Operand Tensor;
  /// What the host does with the copied value: Kept or Asserted (a value
  /// the host needs at once is not reported).
  HostUse Use = HostUse::Kept;
  /// Valid when Call is a helper that makes the copy (however many helpers
  /// deep): the copy itself, the note.
  clang::SourceLocation CopyInHelper;
  /// The loop reads out parts of a result computed before it
  /// (FunctionFacts::readsOutFinishedResult): one copy of the whole result,
  /// before the loop, does instead.
  bool ReadsOutResult = false;
};

/// A call of a helper that moves data off the host (`.to(device)`,
/// `.cuda()`), itself or however many helpers deep, to where the call's
/// arguments say: what the transfer-in-dataset check reports in the methods
/// that produce a data loader's examples.
struct TransferInHelper {
  const clang::CallExpr *Call = nullptr;
  /// The innermost transfer: the note.
  clang::SourceLocation Transfer;
  std::string What; ///< The transfer as its callee is named: ".to()".
  Placement Target; ///< Where it moves the data, in this function's terms.
};

/// `data_parallel(model, input, devices)` with several devices of a module
/// on the host: every call clones the module from the host to each device
/// and reduces its gradients back onto the host.
struct HostModuleReplication {
  const clang::CallExpr *Call = nullptr;
  /// The loop around the call that repeats with the data; null when there
  /// is none in this function.
  const clang::Stmt *Loop = nullptr;
  Operand Module;
};

/// A `.to(device, /*non_blocking=*/true)` whose source is a host tensor in
/// pageable memory: the copy is synchronous, whatever the flag says.
struct NonBlockingFromPageable {
  const clang::CallExpr *Call = nullptr;
  const clang::Expr *NonBlocking = nullptr; ///< The `true` argument.
  Operand Source;
  std::string Target; ///< Where the copy goes: "'device'", "'cuda'".
};

struct DeviceFlowResult {
  std::vector<MixedDeviceSite> MixedSites;
  std::vector<DroppedMigration> DroppedMigrations;
  std::vector<RetainedGraphAccumulation> Accumulations;
  std::vector<HostSyncInLoop> HostSyncs;
  std::vector<NonBlockingFromPageable> NonBlockingCopies;
  std::vector<TransferInHelper> HelperTransfers;
  std::vector<HostModuleReplication> HostReplications;
  /// What this function passes at each call of a function its unit
  /// defines, as the analysis knew it there: every argument, in the call's
  /// order (an operator method's object first). The callee's parameters
  /// take their context from it (CallerContext.h).
  llvm::DenseMap<const clang::CallExpr *, std::vector<AbstractValue>>
      ArgumentsPassed;
  /// For the same calls, in the same order: for an argument that is an
  /// object of a plain class of the user's (a replay buffer passed by
  /// reference), what this function knows each of its tracked fields holds
  /// at the call; empty for any other argument.
  llvm::DenseMap<const clang::CallExpr *, std::vector<ObjectFieldValues>>
      ObjectFieldsPassed;
  /// For the same calls, when the callee is a method called on an object
  /// of a plain class of the user's that this function follows
  /// (`gallery.distances(query)`): what that object holds in each tracked
  /// field at the call. The method's own object takes its context from it.
  llvm::DenseMap<const clang::CallExpr *, ObjectFieldValues>
      CallObjectFieldsPassed;
  /// The iteration cap was hit; the function is reported as clean.
  bool GaveUp = false;
};

/// What a call to a function defined in this translation unit does to
/// devices, stated in terms of its parameters so each call site can fill in
/// its own arguments. A placement whose DeviceVar is one of the function's
/// parameters, on any device, means "wherever that argument is".
/// A module parameter that a function calls with inputs whose device the
/// caller can name: the caller's module must already be there. Stated in the
/// function's own parameters, like the rest of the summary.
struct ModuleInputRequirement {
  const clang::ParmVarDecl *Module = nullptr;
  /// Where the inputs are: wherever another parameter is (the device passed,
  /// another module, a tensor), or on the host.
  Placement Inputs;
  /// The innermost module call, however many helpers deep: the note.
  Origin InnerCall;
  /// How the input got where it is, inside that helper: more notes.
  llvm::SmallVector<Origin, 3> InputHistory;
};

/// Two tensor parameters that a function combines in one device-checked op,
/// however many helpers deep, while each is still wherever its argument is:
/// the caller's two arguments must be on one device.
struct SameDeviceRequirement {
  const clang::ParmVarDecl *First = nullptr;
  const clang::ParmVarDecl *Second = nullptr;
  /// The innermost op that combines them: the note. Subject: the operands
  /// as written there, Detail: the op.
  Origin InnerOp;
};

/// A copy to the host that a function makes outside any loop of its own, of
/// a tensor whose device its caller can name (an argument's, the module's
/// the method is called on, a device variable's): called once per iteration
/// of the caller's loop, it is a sync per iteration.
struct HostSyncInFunction {
  /// The tensor copied, in the function's own terms, like Result.
  AbstractValue Synced;
  /// The innermost copy (`.item()`), however many helpers deep: the note.
  clang::SourceLocation Copy;
  std::string What;   ///< ".item()", as HostSyncInLoop::What
  std::string Tensor; ///< The tensor as written there.
};

/// A transfer off the host that a function may make whenever it is called,
/// written in it or in a helper it calls.
struct TransferInFunction {
  /// The data moved, where the transfer puts it, in the function's own
  /// terms, like Result: the device may be a parameter's.
  AbstractValue Moved;
  clang::SourceLocation Transfer; ///< The innermost transfer: the note.
  std::string What;               ///< As TransferInHelper::What.
};

struct FunctionSummary {
  /// The value returned, joined over every return statement.
  AbstractValue Result = AbstractValue::unknown();
  /// Storage the caller shares, as it is when the function returns:
  /// parameters that are modules (shared handles, so `model->to(d)` in the
  /// callee moves the caller's model) or tensors bound to non-const
  /// references, and variables a lambda captured by reference (or modules it
  /// captured by copy). Storage the function never changed is not listed.
  std::vector<std::pair<const clang::ValueDecl *, AbstractValue>> Effects;
  /// For a plain class's constructor or method (objectFieldsSummarized): an
  /// object field of the class (`ReplayMemory memory_`) and a tensor field
  /// of that object (`states_`), with what the function leaves there. Like
  /// the fields in Effects, a fact of this unit only: project summaries do
  /// not carry it.
  struct MemberObjectEffect {
    const clang::FieldDecl *Object = nullptr;
    const clang::FieldDecl *Field = nullptr;
    AbstractValue AtExit;
  };
  std::vector<MemberObjectEffect> MemberObjectEffects;
  /// An object parameter of a plain class the caller shares (bound to a
  /// non-const reference) and a tracked field of it, with what the function
  /// leaves there; a field it leaves as it was is not listed. Like the
  /// fields in Effects, a fact of this unit only.
  struct ObjectParameterEffect {
    const clang::ParmVarDecl *Object = nullptr;
    const clang::FieldDecl *Field = nullptr;
    AbstractValue AtExit;
  };
  std::vector<ObjectParameterEffect> ObjectParameterEffects;
  /// What the function adds to a container of tensors in a field it
  /// otherwise leaves as it was (`states_.push_back(s)`, in a method of a
  /// replay buffer): the caller joins Added into what the field held before
  /// the call. Owner is null for a field of the object the method is called
  /// on, the object field that holds the container's object (`memory_`), or
  /// an object parameter the caller shares. Added is in the function's own
  /// terms, like Result. A fact of this unit only, like the fields in
  /// Effects.
  struct Append {
    const clang::ValueDecl *Owner = nullptr;
    const clang::FieldDecl *Field = nullptr;
    AbstractValue Added;
  };
  std::vector<Append> Appends;
  /// A method that may move the module it is called on: `to(d)` on `this`,
  /// or `this` handed to code that may.
  bool MovesObject = false;
  /// Module parameters the caller must have moved before the call.
  std::vector<ModuleInputRequirement> ModuleInputs;
  /// Tensor parameters the caller must pass on one device.
  std::vector<SameDeviceRequirement> SameDeviceParameters;
  /// Copies to the host that every call makes. Empty when PassesOverData.
  std::vector<HostSyncInFunction> HostSyncs;
  /// The first transfer off the host the function makes (one is enough to
  /// fix), in a loop of its own or not.
  std::vector<TransferInFunction> Transfers;
  /// The function is a pass over data (train(), evaluate()): it has a loop
  /// that moves tensors to a device or runs backward(), itself or in a
  /// helper it calls. A loop that calls it is an epoch loop, whose
  /// iterations are not the hot path.
  bool PassesOverData = false;
  /// The analysis gave up on the function (it ran too long): the summary
  /// says nothing, not "no effects".
  bool GaveUp = false;
};

/// Analyses one function definition. Never fails: code the model does not
/// understand becomes "unknown" and produces no finding.
DeviceFlowResult analyzeDeviceFlow(const clang::FunctionDecl *Function,
                                   clang::ASTContext &Ctx);

/// Summarises one function definition for its callers. Reports nothing.
FunctionSummary summarizeDeviceFlow(const clang::FunctionDecl *Function,
                                    clang::ASTContext &Ctx);

} // namespace torchtidy

#endif // TORCHTIDY_ANALYSIS_DEVICEFLOW_H
