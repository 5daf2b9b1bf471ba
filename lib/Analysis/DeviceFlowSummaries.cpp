//===--- DeviceFlowSummaries.cpp - Calls into functions of this TU --------===//
//
// A call to a function defined in the same translation unit is not a black
// box: the callee is summarised once (its parameters standing for the
// caller's arguments) and each call site fills in its own arguments. Also
// here: what a function knows about its parameters and fields on entry.
//
//===----------------------------------------------------------------------===//

#include "Analysis/AnalysisContext.h"
#include "Analysis/DeviceFlowPass.h"
#include "Model/TorchApi.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace torchtidy {
namespace detail {
namespace {

/// A placement on any device named by one of Callee's parameters: the
/// summary's way to say "wherever that argument is".
const ParmVarDecl *parameterPlacing(const Placement &Where,
                                    const FunctionDecl *Callee) {
  const auto *Parm = dyn_cast_or_null<ParmVarDecl>(Where.DeviceVar);
  if (!Parm || Parm->getDeclContext() != Callee)
    return nullptr;
  return Parm;
}

/// The definition a call runs, when it is user code this translation unit
/// holds and the call cannot dispatch elsewhere.
const FunctionDecl *summarizableDefinition(const CallExpr *Call,
                                           const SourceManager &SM) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  const FunctionDecl *Definition = nullptr;
  if (!Callee || !Callee->hasBody(Definition) || !Definition)
    return nullptr;
  if (isInLibTorchNamespace(Definition) || isInStandardLibrary(Definition) ||
      SM.isInSystemHeader(Definition->getLocation()) ||
      Definition->isDependentContext() || Definition->isVariadic())
    return nullptr;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Definition);
      Method && Method->isVirtual() && !Method->hasAttr<FinalAttr>() &&
      !Method->getParent()->hasAttr<FinalAttr>())
    return nullptr; // An override may run instead.
  return Definition;
}

/// `this` or `*this`: the object a method works on.
bool isThisObject(const Expr *E) {
  if (!E)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *Deref = dyn_cast<UnaryOperator>(E);
      Deref && Deref->getOpcode() == UO_Deref)
    E = Deref->getSubExpr()->IgnoreParenImpCasts();
  return isa<CXXThisExpr>(E);
}

/// Whether the caller shares the parameter's storage: modules are shared
/// handles even when passed by value; anything else must be bound to a
/// non-const reference.
bool callerSeesChangesTo(const ParmVarDecl *Parm) {
  QualType Type = Parm->getType();
  if (Type->isLValueReferenceType())
    return !Type.getNonReferenceType().isConstQualified();
  return isModuleHandleType(Type);
}

} // namespace

std::optional<AbstractValue>
DeviceFlowPass::entryValue(const ValueDecl *D) const {
  if (!D)
    return std::nullopt;
  TorchValueKind Kind = classifyType(D->getType());
  bool TensorOrModule =
      Kind == TorchValueKind::Tensor || Kind == TorchValueKind::Module;
  AbstractValue V;
  if (const auto *Parm = dyn_cast<ParmVarDecl>(D);
      Parm && Parm->getDeclContext() == Function) {
    // Summarising: each parameter stands for the caller's argument.
    if (Mode == PassMode::Summarize && TensorOrModule) {
      V.Where = Placement::on(DeviceSet::anyDevice(), Parm);
      return V;
    }
    // A module's inputs must meet its parameters: on the module's device.
    if (ModuleOfMethod && Kind == TorchValueKind::Tensor) {
      V.Where = Placement::on(DeviceSet::anyDevice(), ModuleOfMethod);
      return V;
    }
    return std::nullopt;
  }
  const auto *Field = dyn_cast<FieldDecl>(D);
  if (!Field)
    return std::nullopt;
  // A device member (`Trainer::device`) is chosen elsewhere, like a device
  // parameter: the tensors it places stay together. (Options may hold no
  // device at all.)
  if (Kind == TorchValueKind::DeviceSpec &&
      !isTensorOptionsType(Field->getType())) {
    V.Where = Placement::on(DeviceSet::anyDevice(), Field);
    return V;
  }
  // The module's own tensors and submodules move with it.
  if (ModuleOfMethod && TensorOrModule &&
      Field->getParent() == ModuleOfMethod) {
    V.Where = Placement::on(DeviceSet::anyDevice(), ModuleOfMethod);
    return V;
  }
  return std::nullopt;
}

AbstractValue DeviceFlowPass::instantiate(const AbstractValue &CalleeValue,
                                          const FunctionDecl *Callee,
                                          const CallExpr *Call,
                                          llvm::ArrayRef<AbstractValue> Args,
                                          bool &ExplainedByCallee) {
  AbstractValue V = CalleeValue;
  ExplainedByCallee = !V.Origins.empty();
  const Placement &Where = CalleeValue.Where;
  if (!Where.isKnown())
    return V;
  if (const ParmVarDecl *Parm = parameterPlacing(Where, Callee)) {
    if (!Where.Devices.isAny()) {
      // The callee assigned the parameter a device of its own.
      V.Where.DeviceVar = nullptr;
      return V;
    }
    unsigned Index =
        Parm->getFunctionScopeIndex() + firstParameterArgument(Call);
    if (Index >= Args.size())
      return AbstractValue::unknown();
    const AbstractValue &Arg = Args[Index];
    V.Where = Arg.Where;
    if (isDeviceSpecType(Parm->getType())) {
      ExplainedByCallee = true; // The callee put it there.
    } else if (V.Origins.empty()) {
      // The argument itself came back, or something computed from it.
      V.Origins = Arg.Origins;
      if (V.Grad == GradHistory::Unknown)
        V.Grad = Arg.Grad;
      if (V.Memory == HostMemory::Unknown)
        V.Memory = Arg.Memory;
    }
    return V;
  }
  if (const auto *Module = dyn_cast_or_null<CXXRecordDecl>(Where.DeviceVar)) {
    // "The module's device", said by a method of the module: the module this
    // call is made on, or this very module when one method calls another.
    const Expr *Object = callObject(Call);
    if (Object && moduleClassOf(Object->getType()) == Module &&
        !isThisObject(Object)) {
      V.Where = eval(Object).Where;
      ExplainedByCallee = true;
      return V;
    }
    if (ModuleOfMethod == Module && (!Object || isThisObject(Object)))
      return V;
    return AbstractValue::unknown();
  }
  // Joined from several parameters or devices: nothing the caller can name.
  if (Where.Devices.isAny() && !Where.DeviceVar)
    return AbstractValue::unknown();
  return V;
}

bool DeviceFlowPass::applySummary(const CallExpr *Call,
                                  llvm::ArrayRef<AbstractValue> Args,
                                  AbstractValue &Result) {
  const FunctionDecl *Callee =
      summarizableDefinition(Call, Ctx.getSourceManager());
  if (!Callee)
    return false;
  const FunctionSummary *Summary = deviceFlowSummaryOf(Callee, Ctx);
  if (!Summary)
    return false;
  std::string CallSpelling = spelling(Call);
  bool ExplainedByCallee = false;
  Result = instantiate(Summary->Result, Callee, Call, Args, ExplainedByCallee);
  // The steps inside the callee are its own; the call is what the caller
  // sees, and it leads the history.
  if (ExplainedByCallee && Result.Where.isKnown())
    Result.addOrigin({Origin::Kind::HelperResult, Call->getBeginLoc(),
                      CallSpelling, "", Result.Where.describe()});
  for (const auto &[Changed, AtExit] : Summary->Effects) {
    AbstractValue Value =
        instantiate(AtExit, Callee, Call, Args, ExplainedByCallee);
    const Expr *Target = nullptr;
    if (const auto *Parm = dyn_cast<ParmVarDecl>(Changed)) {
      unsigned Index =
          Parm->getFunctionScopeIndex() + firstParameterArgument(Call);
      if (Index >= Call->getNumArgs())
        continue;
      Target = Call->getArg(Index);
    }
    if (ExplainedByCallee && Value.Where.isKnown())
      Value.addOrigin({Origin::Kind::HelperEffect, Call->getBeginLoc(),
                       Target ? spelling(Target) : Changed->getNameAsString(),
                       CallSpelling, Value.Where.describe()});
    if (Target) {
      store(Target, Value);
    } else {
      (*Current)[{Changed, nullptr}] = Value; // Captured by the lambda.
      Memo.clear();
    }
  }
  if (Summary->MovesObject)
    if (const Expr *Object = callObject(Call)) {
      noteObjectMayMove(Object);
      store(Object, AbstractValue::unknown());
    }
  return true;
}

void DeviceFlowPass::noteObjectMayMove(const Expr *E) {
  if (Mode == PassMode::Summarize && isThisObject(E))
    Summary.MovesObject = true;
}

void DeviceFlowPass::collectEffects(const State &AtExit) {
  // A lambda shares what it captured by reference, and modules captured by
  // copy: a copied handle is the same module.
  llvm::SmallPtrSet<const ValueDecl *, 4> SharedCaptures;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Function);
      Method && Method->getParent()->isLambda())
    for (const LambdaCapture &Capture : Method->getParent()->captures())
      if (Capture.capturesVariable() &&
          (Capture.getCaptureKind() == LCK_ByRef ||
           isModuleHandleType(Capture.getCapturedVar()->getType())))
        SharedCaptures.insert(Capture.getCapturedVar());

  for (const auto &[Key, Value] : AtExit) {
    const ValueDecl *D = Key.first;
    if (!D || Key.second)
      continue; // Fields are not summarised.
    if (const auto *Parm = dyn_cast<ParmVarDecl>(D);
        Parm && Parm->getDeclContext() == Function) {
      if (callerSeesChangesTo(Parm))
        Summary.Effects.push_back({D, Value});
    } else if (SharedCaptures.contains(D)) {
      Summary.Effects.push_back({D, Value});
    }
  }
}

} // namespace detail
} // namespace torchtidy
