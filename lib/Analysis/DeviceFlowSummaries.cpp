//===--- DeviceFlowSummaries.cpp - Calls into functions of this TU --------===//
//
// A call to a function defined in the same translation unit is not a black
// box: the callee is summarised once (its parameters standing for the
// caller's arguments) and each call site fills in its own arguments. Also
// here: what a function knows about its parameters and fields on entry.
//
//===----------------------------------------------------------------------===//

#include "Analysis/ClassFields.h"
#include "Analysis/DeviceFlowPass.h"
#include "Analysis/UnitAnalysis.h"
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

/// The function a call runs, when it is user code and the call cannot
/// dispatch elsewhere: its definition when this translation unit has one,
/// else its canonical declaration.
const FunctionDecl *summarizableCallee(const CallExpr *Call,
                                       const SourceManager &SM) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return nullptr;
  const FunctionDecl *Definition = nullptr;
  if (Callee->hasBody(Definition) && Definition)
    Callee = Definition;
  else
    Callee = Callee->getCanonicalDecl();
  if (isInLibTorchNamespace(Callee) || isInStandardLibrary(Callee) ||
      SM.isInSystemHeader(Callee->getLocation()) ||
      Callee->isDependentContext() || Callee->isVariadic())
    return nullptr;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
      Method && Method->isVirtual() && !Method->hasAttr<FinalAttr>() &&
      !Method->getParent()->hasAttr<FinalAttr>())
    return nullptr; // An override may run instead.
  return Callee;
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

bool isThisObject(const Expr *E) {
  if (!E)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *Deref = dyn_cast<UnaryOperator>(E);
      Deref && Deref->getOpcode() == UO_Deref)
    E = Deref->getSubExpr()->IgnoreParenImpCasts();
  return isa<CXXThisExpr>(E);
}

const CXXRecordDecl *objectFieldsSummarized(const FunctionDecl *F) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(F);
  if (!Method || !Method->isInstance() || isa<CXXDestructorDecl>(Method))
    return nullptr;
  const CXXRecordDecl *Class = Method->getParent();
  return isPlainUserClass(Class) ? Class : nullptr;
}

std::pair<const FunctionDecl *, const FunctionSummary *>
DeviceFlowPass::calleeSummary(const CallExpr *Call) {
  const FunctionDecl *Callee = summarizableCallee(Call, Ctx.getSourceManager());
  if (!Callee)
    return {nullptr, nullptr};
  // A function this unit only declares may be defined in another unit of
  // the project; its summary is then in the project's facts.
  const FunctionSummary *Summary = Callee->doesThisDeclarationHaveABody()
                                       ? deviceFlowSummaryOf(Callee)
                                       : projectSummaryOf(Callee);
  return {Callee, Summary};
}

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
    // Reporting a helper whose callers are all seen: what they pass.
    if (Callers && Parm->getFunctionScopeIndex() < Callers->Parameters.size())
      if (const AbstractValue &Passed =
              Callers->Parameters[Parm->getFunctionScopeIndex()];
          Passed.Where.isKnown())
        return Passed;
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
  // The module's own tensors and submodules move with it, when registered.
  // One that is not stays where it was created (the unregistered-member
  // finding says so once; here it is unknown).
  if (ModuleOfMethod && TensorOrModule &&
      Field->getParent() == ModuleOfMethod &&
      !isUnregisteredModuleMember(Field)) {
    V.Where = Placement::on(DeviceSet::anyDevice(), ModuleOfMethod);
    return V;
  }
  if (PlainClassOfMethod && !isa<CXXConstructorDecl>(Function) &&
      Field->getParent() == PlainClassOfMethod) {
    // Summarising a method of a plain class: what the object holds when
    // the call starts, which each call site knows for its own object.
    if (Mode == PassMode::Summarize &&
        (Kind == TorchValueKind::Tensor || Kind == TorchValueKind::TensorList)) {
      V.Where = Placement::on(DeviceSet::anyDevice(), Field);
      return V;
    }
    // Reporting a method whose calls are all seen: what their objects hold
    // (`Gallery gallery(feats)` in `main`, with feats on the GPU).
    if (Mode == PassMode::Report && Callers)
      for (const auto &[Passed, Value] : Callers->ThisObjectFields)
        if (Passed == Field && Value.Where.isKnown())
          return Value;
    // Else what the class's own code ever stores there.
    if (Mode == PassMode::Report)
      return UnitAnalysis::of(Ctx).classFieldValueOf(Field);
  }
  // Likewise the tensors a storage class moves with its own `to(Device)`.
  if (DeviceOwnerOfMethod && Field->getParent() == DeviceOwnerOfMethod &&
      movesWithItsObject(Field)) {
    V.Where = Placement::on(DeviceSet::anyDevice(), DeviceOwnerOfMethod);
    return V;
  }
  return std::nullopt;
}

AbstractValue DeviceFlowPass::instantiate(const AbstractValue &CalleeValue,
                                          const FunctionDecl *Callee,
                                          const CallExpr *Call,
                                          llvm::ArrayRef<AbstractValue> Args,
                                          bool &ExplainedByCallee) {
  return instantiateOn(CalleeValue, Callee, callObject(Call),
                       firstParameterArgument(Call), Args, ExplainedByCallee);
}

const ValueDecl *DeviceFlowPass::objectFieldsOwner(const Expr *Object) const {
  // `*memory`: the object the std::unique_ptr `memory` owns.
  if (const Expr *Pointer = Object ? uniquePtrReached(Object) : nullptr)
    Object = Pointer;
  std::optional<StorageKey> Key = storageKeyOf(Object);
  if (!Key || (Key->first && Key->second))
    return nullptr;
  const ValueDecl *Owner = Key->first ? Key->first : Key->second;
  if (!plainUserClassOf(Owner->getType().getNonReferenceType()))
    return nullptr;
  return Owner;
}

std::optional<AbstractValue>
DeviceFlowPass::fieldOfObject(const Expr *Object, const FieldDecl *Field) {
  const ValueDecl *Owner = objectFieldsOwner(Object);
  if (!Owner)
    return std::nullopt;
  auto It = Current->find({Owner, Field});
  if (It != Current->end())
    return It->second;
  if (const auto *ObjectField = dyn_cast<FieldDecl>(Owner))
    return memberObjectFieldOnEntry(ObjectField, Field);
  const auto *Parm = dyn_cast<ParmVarDecl>(Owner);
  if (!Parm || Parm->getDeclContext() != Function)
    return std::nullopt;
  // An object parameter, summarising: what the caller's object holds (an
  // effect that leaves it so is no change).
  if (Mode == PassMode::Summarize) {
    AbstractValue V;
    V.Where = Placement::on(DeviceSet::anyDevice(), Field);
    V.Where.FromParameter = Parm;
    return V;
  }
  // Reporting a function whose callers are all seen: what their objects
  // hold.
  if (Callers && Parm->getFunctionScopeIndex() < Callers->ObjectFields.size())
    for (const auto &[Passed, Value] :
         Callers->ObjectFields[Parm->getFunctionScopeIndex()])
      if (Passed == Field)
        return Value;
  return std::nullopt;
}

ObjectFieldValues DeviceFlowPass::fieldsOfObject(const Expr *Object) {
  ObjectFieldValues Fields;
  const ValueDecl *Owner = objectFieldsOwner(Object);
  if (!Owner)
    return Fields;
  for (const FieldDecl *Field :
       plainUserClassOf(Owner->getType().getNonReferenceType())->fields())
    if (classifyType(Field->getType()) != TorchValueKind::None)
      Fields.push_back(
          {Field,
           fieldOfObject(Object, Field).value_or(AbstractValue::unknown())});
  return Fields;
}

/// Summarising, what an object parameter's field holds while the function
/// has not changed it (fieldOfObject).
static bool isCallersObjectField(const Placement &Where,
                                 const ParmVarDecl *Parm,
                                 const FieldDecl *Field) {
  return Where.isKnown() && Where.Devices.isAny() && Where.DeviceVar == Field &&
         Where.FromParameter == Parm;
}

std::optional<AbstractValue>
DeviceFlowPass::memberObjectFieldOnEntry(const FieldDecl *Object,
                                         const FieldDecl *Field) const {
  if (!PlainClassOfMethod || Object->getParent() != PlainClassOfMethod ||
      isa<CXXConstructorDecl>(Function))
    return std::nullopt;
  // Summarising: what the object held when the call started, which is what
  // the class's fact joins over (an unchanged field is skipped there).
  if (Mode == PassMode::Summarize) {
    TorchValueKind Kind = classifyType(Field->getType());
    if (Kind != TorchValueKind::Tensor && Kind != TorchValueKind::TensorList)
      return std::nullopt;
    AbstractValue V;
    V.Where = Placement::on(DeviceSet::anyDevice(), Field);
    return V;
  }
  return UnitAnalysis::of(Ctx).memberObjectFieldValueOf(Object, Field);
}

AbstractValue DeviceFlowPass::instantiateOn(const AbstractValue &CalleeValue,
                                            const FunctionDecl *Callee,
                                            const Expr *Object,
                                            unsigned FirstArgument,
                                            llvm::ArrayRef<AbstractValue> Args,
                                            bool &ExplainedByCallee) {
  if (!CalleeValue.Elements.empty()) {
    // A tuple: each element stands for what it was made from.
    std::vector<AbstractValue> Parts;
    ExplainedByCallee = false;
    for (const AbstractValue &Part : CalleeValue.Elements) {
      bool PartExplained = false;
      Parts.push_back(instantiateOn(Part, Callee, Object, FirstArgument, Args,
                                    PartExplained));
      ExplainedByCallee |= PartExplained;
    }
    return AbstractValue::tupleOf(std::move(Parts));
  }
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
    unsigned Index = Parm->getFunctionScopeIndex() + FirstArgument;
    if (Index >= Args.size())
      return AbstractValue::unknown();
    const AbstractValue &Arg = Args[Index];
    V.Where = Arg.Where;
    if (isDeviceSpecType(Parm->getType())) {
      ExplainedByCallee = true; // The callee put it there.
      // Options that name no device (`TensorOptions()`, a dtype): a factory
      // given them allocates on the CPU. Anything else placed by them (a
      // `.to(options)`) stays wherever it was, which the summary cannot say.
      if (Arg.Where.State == Placement::Knowledge::Unset) {
        if (V.Origins.empty() || V.Origins.front().K != Origin::Kind::Factory)
          return AbstractValue::unknown();
        V.Where = Placement::host();
        V.Origins.front().DeviceWords = V.Where.describe();
      }
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
  if (const auto *Owner = dyn_cast_or_null<CXXRecordDecl>(Where.DeviceVar);
      Owner && !isModuleClass(Owner)) {
    // "Where the object was moved", said by a method of a device-owning
    // class: known to the class's own methods only.
    if (DeviceOwnerOfMethod == Owner && (!Object || isThisObject(Object)))
      return V;
    return AbstractValue::unknown();
  }
  if (const auto *Module = dyn_cast_or_null<CXXRecordDecl>(Where.DeviceVar)) {
    // "The module's device", said by a method of the module: the module this
    // call is made on, or this very module when one method calls another.
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
  if (const auto *Field = dyn_cast_or_null<FieldDecl>(Where.DeviceVar);
      Field && Where.Devices.isAny() && !isDeviceSpecType(Field->getType())) {
    // "What the object holds in Field when the call starts", said by a
    // method of a plain class: the one the call is made on, where this
    // function knows it, or this function's own object. Summarising a
    // method of the same class, that is still "whatever the object holds".
    // Of an object parameter, it is what the argument holds there, where
    // its value says (`push(Experience{state, ...})`).
    std::optional<AbstractValue> Held;
    if (const ParmVarDecl *Parm = Where.FromParameter) {
      if (Parm->getDeclContext() != Callee)
        return AbstractValue::unknown();
      unsigned Index = Parm->getFunctionScopeIndex() + FirstArgument;
      if (Index < Args.size() &&
          Field->getFieldIndex() < Args[Index].Elements.size())
        Held = Args[Index].Elements[Field->getFieldIndex()];
    } else if (Object && !isThisObject(Object)) {
      Held = fieldOfObject(Object, Field);
    } else if (PlainClassOfMethod == Field->getParent()) {
      if (Mode == PassMode::Summarize && !isa<CXXConstructorDecl>(Function))
        return V;
      auto It = Current->find({nullptr, Field});
      Held = It != Current->end() ? std::optional(It->second)
                                  : entryValue(Field);
    }
    // A container of objects (`std::deque<Transition>`) may know its
    // elements' fields where it knows no one device for them all.
    if (!Held || (!Held->Where.isKnown() && Held->Elements.empty()))
      return AbstractValue::unknown();
    V.Where = Held->Where;
    // The tuples a replay buffer's container holds.
    if (V.Elements.empty())
      V.Elements = Held->Elements;
    if (V.Origins.empty()) {
      V.Origins = Held->Origins;
      if (V.Grad == GradHistory::Unknown)
        V.Grad = Held->Grad;
      if (V.Memory == HostMemory::Unknown)
        V.Memory = Held->Memory;
    }
    ExplainedByCallee = true;
    return V;
  }
  // Joined from several parameters or devices: nothing the caller can name.
  if (Where.Devices.isAny() && !Where.DeviceVar)
    return AbstractValue::unknown();
  return V;
}

bool DeviceFlowPass::applySummary(const CallExpr *Call,
                                  llvm::ArrayRef<AbstractValue> Args,
                                  AbstractValue &Result) {
  auto [Callee, Summary] = calleeSummary(Call);
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
  // So does each element of a returned pair or tuple.
  for (AbstractValue &Element : Result.Elements)
    if (ExplainedByCallee && Element.Where.isKnown())
      Element.addOrigin({Origin::Kind::HelperResult, Call->getBeginLoc(),
                         CallSpelling, "", Element.Where.describe()});
  // Before the callee's effects: the module as it is when the call starts.
  applyModuleInputRequirements(Call, Callee, *Summary, Args);
  applySameDeviceRequirements(Call, Callee, *Summary);
  applyHostSyncs(Call, Callee, *Summary, Args);
  applyTransfers(Call, Callee, *Summary, Args);
  if (Mode == PassMode::Summarize)
    this->Summary.PassesOverData |= Summary->PassesOverData;
  // Objects the callee may change beyond what its summary says: one passed
  // by reference (its fields are not summarised), and the object of a
  // method whose summary does not report its fields (a project fact, or a
  // class whose fields are facts of another kind).
  const Expr *Object = callObject(Call);
  bool ReportsObjectFields = objectFieldsSummarized(Callee) &&
                             Callee->doesThisDeclarationHaveABody();
  if (Object && !isThisObject(Object) && !ReportsObjectFields)
    forgetFieldsOf(Object);
  for (unsigned I = 0; I < Callee->getNumParams(); ++I) {
    unsigned Index = I + firstParameterArgument(Call);
    const ParmVarDecl *Parm = Callee->getParamDecl(I);
    if (Index >= Call->getNumArgs())
      continue;
    // An object passed by pointer (`fill(&buffer)`): the callee's changes
    // through it are not summarised.
    if (QualType Type = Parm->getType();
        Type->isPointerType() && !Type->getPointeeType().isConstQualified()) {
      forgetFieldsOf(Call->getArg(Index));
      continue;
    }
    if (!callerSeesChangesTo(Parm))
      continue;
    // An object of a plain class, passed to a function of this unit: its
    // fields are what the summary says the function leaves there.
    const ValueDecl *Owner = objectFieldsOwner(Call->getArg(Index));
    if (!Owner || !Callee->doesThisDeclarationHaveABody()) {
      forgetFieldsOf(Call->getArg(Index));
      continue;
    }
    for (const FunctionSummary::ObjectParameterEffect &Effect :
         Summary->ObjectParameterEffects) {
      if (Effect.Object != Parm)
        continue;
      bool FieldExplained = false;
      AbstractValue Value =
          instantiate(Effect.AtExit, Callee, Call, Args, FieldExplained);
      if (FieldExplained && Value.Where.isKnown())
        Value.addOrigin({Origin::Kind::HelperEffect, Call->getBeginLoc(),
                         spelling(Call->getArg(Index)) + "." +
                             Effect.Field->getNameAsString(),
                         CallSpelling, Value.Where.describe()});
      (*Current)[{Owner, Effect.Field}] = Value;
      Memo.clear();
    }
  }
  for (const auto &[Changed, AtExit] : Summary->Effects) {
    AbstractValue Value =
        instantiate(AtExit, Callee, Call, Args, ExplainedByCallee);
    if (const auto *Field = dyn_cast<FieldDecl>(Changed)) {
      // A field of the object the method was called on: this function's
      // own, a local object's, or one of its own object's objects'.
      std::optional<StorageKey> Key;
      if (!Object || isThisObject(Object))
        Key = StorageKey{nullptr, Field};
      else if (const ValueDecl *Owner = objectFieldsOwner(Object))
        Key = StorageKey{Owner, Field};
      else
        continue;
      // Named as this function names it: `counts_`, `buffer.states_`.
      std::string Subject = Field->getNameAsString();
      if (Key->first)
        Subject = spelling(Object) + "." + Subject;
      if (ExplainedByCallee && Value.Where.isKnown())
        Value.addOrigin({Origin::Kind::HelperEffect, Call->getBeginLoc(),
                         Subject, CallSpelling, Value.Where.describe()});
      (*Current)[*Key] = Value;
      Memo.clear();
      continue;
    }
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
  applyAppends(Call, Callee, *Summary, Args, CallSpelling);
  if (Summary->MovesObject && Object) {
    noteObjectMayMove(Object);
    store(Object, AbstractValue::unknown());
  }
  return true;
}

void DeviceFlowPass::applyAppends(const CallExpr *Call,
                                  const FunctionDecl *Callee,
                                  const FunctionSummary &Summary,
                                  llvm::ArrayRef<AbstractValue> Args,
                                  llvm::StringRef CallSpelling) {
  const Expr *Object = callObject(Call);
  bool OnThisObject = !Object || isThisObject(Object);
  for (const FunctionSummary::Append &Append : Summary.Appends) {
    // Where the container is, as this function names it, and what it holds
    // now.
    std::optional<StorageKey> Key;
    std::optional<AbstractValue> Held;
    std::string Subject = Append.Field->getNameAsString();
    if (!Append.Owner) {
      if (OnThisObject) {
        Key = StorageKey{nullptr, Append.Field};
        auto It = Current->find(*Key);
        Held = It != Current->end() ? std::optional(It->second)
                                    : entryValue(Append.Field);
      } else if (const ValueDecl *Owner = objectFieldsOwner(Object)) {
        Key = StorageKey{Owner, Append.Field};
        Held = fieldOfObject(Object, Append.Field);
        Subject = spelling(Object) + "." + Subject;
      }
    } else if (const auto *Parm = dyn_cast<ParmVarDecl>(Append.Owner)) {
      unsigned Index =
          Parm->getFunctionScopeIndex() + firstParameterArgument(Call);
      if (Index < Call->getNumArgs())
        if (const ValueDecl *Owner = objectFieldsOwner(Call->getArg(Index))) {
          Key = StorageKey{Owner, Append.Field};
          Held = fieldOfObject(Call->getArg(Index), Append.Field);
          Subject = spelling(Call->getArg(Index)) + "." + Subject;
        }
    } else if (const auto *ObjectField = dyn_cast<FieldDecl>(Append.Owner);
               ObjectField && OnThisObject &&
               ObjectField->getParent() == PlainClassOfMethod) {
      // A method of this function's own class fills the memory it holds.
      Key = StorageKey{ObjectField, Append.Field};
      auto It = Current->find(*Key);
      Held = It != Current->end()
                 ? std::optional(It->second)
                 : memberObjectFieldOnEntry(ObjectField, Append.Field);
    }
    if (!Key)
      continue;
    bool Explained = false;
    AbstractValue Added =
        instantiate(Append.Added, Callee, Call, Args, Explained);
    if (Explained && Added.Where.isKnown())
      Added.addOrigin({Origin::Kind::HelperEffect, Call->getBeginLoc(), Subject,
                       CallSpelling.str(), Added.Where.describe()});
    appendAt(*Key, Held.value_or(AbstractValue::unknown()), Added);
  }
}

void DeviceFlowPass::applyConstructorEffects(
    const ValueDecl *Owner, const ObjectConstruction &Construction) {
  // Whatever the object held before, a new one is built in its place.
  forgetFieldsKeptUnder(Owner);
  const CXXConstructorDecl *Constructor = Construction.Constructor;
  const FunctionDecl *Definition = nullptr;
  if (!Constructor || !Constructor->hasBody(Definition) || !Definition ||
      !objectFieldsSummarized(Definition) ||
      Ctx.getSourceManager().isInSystemHeader(Definition->getLocation()))
    return;
  const FunctionSummary *Summary = deviceFlowSummaryOf(Definition);
  if (!Summary)
    return;
  llvm::SmallVector<AbstractValue, 4> Args;
  for (const Expr *Arg : Construction.Args)
    Args.push_back(eval(Arg));
  std::string ClassName = Constructor->getParent()->getNameAsString();
  for (const auto &[Changed, AtExit] : Summary->Effects) {
    const auto *Field = dyn_cast<FieldDecl>(Changed);
    if (!Field)
      continue;
    bool ExplainedByCallee = false;
    AbstractValue Value = instantiateOn(AtExit, Definition, nullptr, 0, Args,
                                        ExplainedByCallee);
    if (ExplainedByCallee && Value.Where.isKnown())
      Value.addOrigin(
          {Origin::Kind::HelperEffect, Construction.Loc,
           Owner->getNameAsString() + "." + Field->getNameAsString(), ClassName,
           Value.Where.describe()});
    (*Current)[{Owner, Field}] = Value;
  }
  Memo.clear();
}

void DeviceFlowPass::assignObject(const Expr *Target, const Expr *Source) {
  const ValueDecl *Owner = objectFieldsOwner(Target);
  if (!Owner)
    return;
  const Expr *Bare = ignoreValuePreserving(Source)->IgnoreImplicit();
  if (std::optional<ObjectConstruction> Built = objectConstructionOf(Bare)) {
    applyConstructorEffects(Owner, *Built);
    return;
  }
  // A copy of another object: its fields, as far as they are known.
  if (objectFieldsOwner(Bare)) {
    for (auto &[Field, Value] : fieldsOfObject(Bare))
      (*Current)[{Owner, Field}] = std::move(Value);
    Memo.clear();
    return;
  }
  // An object from anywhere else: a container's element, or what the
  // analysis does not follow (a helper's result).
  if (AbstractValue Object = eval(Bare); !Object.Elements.empty())
    setFieldsFrom(Owner, Object);
  else
    forgetFieldsKeptUnder(Owner);
}

/// The module or tensor parameter a placement stands for, while the function
/// has not moved or replaced it: "wherever the caller's argument is".
static const ParmVarDecl *untouchedParameter(const Placement &Where,
                                             const FunctionDecl *F,
                                             TorchValueKind Kind) {
  const ParmVarDecl *Parm = parameterPlacing(Where, F);
  if (!Parm || !Where.Devices.isAny() || classifyType(Parm->getType()) != Kind)
    return nullptr;
  return Parm;
}

static const ParmVarDecl *untouchedModuleParameter(const Placement &Where,
                                                   const FunctionDecl *F) {
  return untouchedParameter(Where, F, TorchValueKind::Module);
}

static const ParmVarDecl *untouchedTensorParameter(const Placement &Where,
                                                   const FunctionDecl *F) {
  return untouchedParameter(Where, F, TorchValueKind::Tensor);
}

bool isCheckedByCallers(const Placement &A, const Placement &B) {
  auto IsTensorParameter = [](const ParmVarDecl *Parm) {
    return Parm && classifyType(Parm->getType()) == TorchValueKind::Tensor;
  };
  return IsTensorParameter(A.FromParameter) &&
         IsTensorParameter(B.FromParameter) &&
         A.FromParameter != B.FromParameter;
}

bool DeviceFlowPass::isModuleCheckedByCallers(const Placement &Module,
                                              const Placement &Inputs) const {
  const ParmVarDecl *ModuleParm = Module.FromParameter;
  if (!ModuleParm ||
      classifyType(ModuleParm->getType()) != TorchValueKind::Module)
    return false;
  // As isCheckableInputPlacement, in the callers' values.
  if (!Inputs.isDefinitelyHost() &&
      !(Inputs.FromParameter && Inputs.FromParameter != ModuleParm))
    return false;
  // While the summary is being computed (recursion), it is taken to say so.
  const FunctionSummary *Own = deviceFlowSummaryOf(Function);
  return !Own || llvm::any_of(Own->ModuleInputs,
                              [&](const ModuleInputRequirement &Required) {
                                return Required.Module == ModuleParm;
                              });
}

/// Whether inputs so placed say where a module fed them must be, in terms
/// the caller can check: on the host, or wherever one of the function's
/// parameters is (a device, another module, a tensor) other than the module
/// itself.
static bool isCheckableInputPlacement(const Placement &Where,
                                      const ParmVarDecl *Module,
                                      const FunctionDecl *F) {
  if (Where.isDefinitelyHost())
    return true;
  const ParmVarDecl *Parm = parameterPlacing(Where, F);
  return Parm && Parm != Module && Where.Devices.isAny();
}

static void addRequirement(FunctionSummary &Summary,
                           ModuleInputRequirement Required) {
  for (const ModuleInputRequirement &Known : Summary.ModuleInputs)
    if (Known.Module == Required.Module &&
        Known.Inputs.DeviceVar == Required.Inputs.DeviceVar)
      return;
  Summary.ModuleInputs.push_back(std::move(Required));
}

void DeviceFlowPass::noteModuleInputs(const CallExpr *Call,
                                      const Operand &Module,
                                      llvm::ArrayRef<Operand> Inputs) {
  if (Mode != PassMode::Summarize || !FinalWalk)
    return;
  const ParmVarDecl *ModuleParm =
      untouchedModuleParameter(Module.Value.Where, Function);
  if (!ModuleParm)
    return;
  for (const Operand &Input : Inputs)
    if (!Input.Value.isHostScalar() &&
        isCheckableInputPlacement(Input.Value.Where, ModuleParm, Function))
      addRequirement(Summary,
                     {ModuleParm, Input.Value.Where,
                      Origin{Origin::Kind::ModuleCallInHelper,
                             callBegin(Call), Input.Spelling,
                             Module.Spelling, Input.Value.Where.describe()},
                      Input.Value.Origins});
}

static void addRequirement(FunctionSummary &Summary,
                           SameDeviceRequirement Required) {
  if (Required.Second->getFunctionScopeIndex() <
      Required.First->getFunctionScopeIndex())
    std::swap(Required.First, Required.Second);
  for (const SameDeviceRequirement &Known : Summary.SameDeviceParameters)
    if (Known.First == Required.First && Known.Second == Required.Second)
      return;
  Summary.SameDeviceParameters.push_back(std::move(Required));
}

void DeviceFlowPass::noteCombinedParameters(const CallExpr *Call,
                                            llvm::StringRef CallName,
                                            llvm::ArrayRef<Operand> Operands) {
  if (Mode != PassMode::Summarize || !FinalWalk)
    return;
  for (size_t I = 0; I < Operands.size(); ++I)
    for (size_t J = I + 1; J < Operands.size(); ++J) {
      const ParmVarDecl *First =
          untouchedTensorParameter(Operands[I].Value.Where, Function);
      const ParmVarDecl *Second =
          untouchedTensorParameter(Operands[J].Value.Where, Function);
      if (!First || !Second || First == Second)
        continue;
      addRequirement(Summary,
                     {First, Second,
                      Origin{Origin::Kind::CombinedInHelper, Call->getExprLoc(),
                             "'" + Operands[I].Spelling + "' and '" +
                                 Operands[J].Spelling + "'",
                             CallName.str(), ""}});
    }
}

void DeviceFlowPass::applySameDeviceRequirements(
    const CallExpr *Call, const FunctionDecl *Callee,
    const FunctionSummary &CalleeSummary) {
  if (Mode == PassMode::Summarize ? !FinalWalk : !Reporting)
    return;
  for (const SameDeviceRequirement &Required :
       CalleeSummary.SameDeviceParameters) {
    unsigned First =
        Required.First->getFunctionScopeIndex() + firstParameterArgument(Call);
    unsigned Second =
        Required.Second->getFunctionScopeIndex() + firstParameterArgument(Call);
    if (First >= Call->getNumArgs() || Second >= Call->getNumArgs())
      continue;
    Operand A = operandFor(Call->getArg(First));
    Operand B = operandFor(Call->getArg(Second));
    if (Mode == PassMode::Summarize) {
      // A helper of a helper: the requirement is this function's caller's.
      const ParmVarDecl *ParmA =
          untouchedTensorParameter(A.Value.Where, Function);
      const ParmVarDecl *ParmB =
          untouchedTensorParameter(B.Value.Where, Function);
      if (ParmA && ParmB && ParmA != ParmB)
        addRequirement(Summary, {ParmA, ParmB, Required.InnerOp});
      continue;
    }
    if (A.Value.isHostScalar() || B.Value.isHostScalar() ||
        !mayConflict(A.Value.Where, B.Value.Where) ||
        isCheckedByCallers(A.Value.Where, B.Value.Where))
      continue;
    // The note inside the helper ends the history of the operand that did
    // not stay behind (recordMixedSite keeps A as the one that stayed unless
    // only B is on the host).
    bool AStayed =
        A.Value.Where.isDefinitelyHost() || !B.Value.Where.isDefinitelyHost();
    auto &History = (AStayed ? B : A).Value.Origins;
    if (History.size() == AbstractValue::MaxOrigins)
      History.pop_back();
    History.push_back(Required.InnerOp);
    recordMixedSite(Call, calleeDisplayName(Call), std::move(A), std::move(B));
  }
}

bool DeviceFlowPass::callsPassOverData(const Stmt *Loop) {
  auto [It, Inserted] = EpochLoops.try_emplace(Loop, false);
  if (!Inserted)
    return It->second;
  bool Found = false;
  forEachStmt(Loop, [&](const Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (Found || !Call)
      return;
    if (const FunctionSummary *Summary = calleeSummary(Call).second)
      Found = Summary->PassesOverData;
  });
  // The map may have grown while helpers were summarised.
  EpochLoops[Loop] = Found;
  return Found;
}

void DeviceFlowPass::applyHostSyncs(const CallExpr *Call,
                                    const FunctionDecl *Callee,
                                    const FunctionSummary &CalleeSummary,
                                    llvm::ArrayRef<AbstractValue> Args) {
  if (CalleeSummary.HostSyncs.empty() ||
      (Mode == PassMode::Summarize ? !FinalWalk : !Reporting))
    return;
  const Stmt *Loop = nullptr;
  if (Mode == PassMode::Summarize) {
    // Called in a loop of this helper: a loop of its own, not its caller's.
    if (Facts.innermostRepeatedLoopAround(Call))
      return;
  } else if (!(Loop = hotLoopAround(Call))) {
    return;
  }
  for (const HostSyncInFunction &Sync : CalleeSummary.HostSyncs) {
    bool ExplainedByCallee = false;
    AbstractValue Synced =
        instantiate(Sync.Synced, Callee, Call, Args, ExplainedByCallee);
    if (!maySyncWithDevice(Synced.Where))
      continue;
    if (Mode == PassMode::Summarize) {
      // The first copy is the finding; more say nothing new.
      if (Summary.HostSyncs.empty())
        Summary.HostSyncs.push_back(
            {std::move(Synced), Sync.Copy, Sync.What, Sync.Tensor});
      continue;
    }
    // A helper that hands back a number (an agent's act() returning
    // `.item()`) gives the host a value: what the loop does with it says
    // whether it can wait.
    HostUse Use = Call->getType()->isArithmeticType() ? Facts.hostUseOf(Call)
                                                      : HostUse::Kept;
    if (Use == HostUse::Needed)
      return;
    // One finding per call, at its first copy.
    if (!ReportedSites.insert(Call).second)
      return;
    HostSyncInLoop Found;
    Found.Call = Call;
    Found.Loop = Loop;
    Found.Use = Use;
    Found.What = Sync.What;
    Found.Tensor.E = Call;
    Found.Tensor.Spelling = Sync.Tensor;
    Found.Tensor.Value = std::move(Synced);
    Found.CopyInHelper = Sync.Copy;
    Result.HostSyncs.push_back(std::move(Found));
    return;
  }
}

void DeviceFlowPass::applyTransfers(const CallExpr *Call,
                                    const FunctionDecl *Callee,
                                    const FunctionSummary &CalleeSummary,
                                    llvm::ArrayRef<AbstractValue> Args) {
  if (CalleeSummary.Transfers.empty() ||
      (Mode == PassMode::Summarize ? !FinalWalk : !Reporting))
    return;
  const TransferInFunction &Transfer = CalleeSummary.Transfers.front();
  bool ExplainedByCallee = false;
  AbstractValue Moved =
      instantiate(Transfer.Moved, Callee, Call, Args, ExplainedByCallee);
  // `toTensor(ids, torch::kCPU)`: the helper moves nothing for this caller.
  if (Moved.Where.isDefinitelyHost())
    return;
  if (Mode == PassMode::Summarize) {
    if (Summary.Transfers.empty())
      Summary.Transfers.push_back(
          {std::move(Moved), Transfer.Transfer, Transfer.What});
    return;
  }
  if (!ReportedTransferCalls.insert(Call).second)
    return;
  Result.HelperTransfers.push_back(
      {Call, Transfer.Transfer, Transfer.What, Moved.Where});
}

void DeviceFlowPass::noteTransfer(const CallExpr *Call,
                                  const AbstractValue &Moved) {
  if (Mode != PassMode::Summarize || !FinalWalk || !Summary.Transfers.empty() ||
      Moved.Where.isDefinitelyHost())
    return;
  // The same transfers as the transfer-in-dataset check's own: a dtype
  // conversion is none.
  TransferTarget Target = transferTarget(Call);
  if (Target != TransferTarget::OffHost && Target != TransferTarget::Unknown)
    return;
  Summary.Transfers.push_back(
      {Moved, Call->getExprLoc(), calleeDisplayName(Call)});
}

void DeviceFlowPass::applyModuleInputRequirements(
    const CallExpr *Call, const FunctionDecl *Callee,
    const FunctionSummary &CalleeSummary, llvm::ArrayRef<AbstractValue> Args) {
  if (Mode == PassMode::Summarize ? !FinalWalk : !Reporting)
    return;
  for (const ModuleInputRequirement &Required : CalleeSummary.ModuleInputs) {
    unsigned Index =
        Required.Module->getFunctionScopeIndex() + firstParameterArgument(Call);
    if (Index >= Args.size() || Index >= Call->getNumArgs())
      continue;
    AbstractValue CalleeInputs;
    CalleeInputs.Where = Required.Inputs;
    bool ExplainedByCallee = false;
    Placement Inputs =
        instantiate(CalleeInputs, Callee, Call, Args, ExplainedByCallee).Where;
    if (Mode == PassMode::Summarize) {
      // A helper of a helper: the requirement is this function's caller's.
      if (const ParmVarDecl *ModuleParm =
              untouchedModuleParameter(Args[Index].Where, Function);
          ModuleParm && isCheckableInputPlacement(Inputs, ModuleParm, Function))
        addRequirement(Summary, {ModuleParm, Inputs, Required.InnerCall,
                                 Required.InputHistory});
      continue;
    }
    // The caller passed torch::kCPU for a device the helper moves inputs
    // to: a wrong argument, not a tensor or model left behind. (A host
    // tensor passed as the input itself is left behind.)
    if (const ParmVarDecl *Placing = parameterPlacing(Required.Inputs, Callee);
        Inputs.isDefinitelyHost() && Placing &&
        isDeviceSpecType(Placing->getType()))
      continue;
    const Expr *ModuleArg = Call->getArg(Index);
    // `run(*model)`: the module is `model`, and is moved as `model->to(d)`.
    if (const Expr *Handle = dereferencedModuleHandle(ModuleArg))
      ModuleArg = Handle;
    Operand Module = operandFor(ModuleArg);
    Module.IsModule = true;
    if (!mayConflict(Module.Value.Where, Inputs) ||
        isModuleCheckedByCallers(Module.Value.Where, Inputs))
      continue;
    // One finding per module left behind, at the first helper that runs it.
    std::optional<StorageKey> Key = storageKeyOf(ModuleArg);
    if (Key && !ModulesLeftBehind.insert(*Key).second)
      continue;
    // A tensor the caller passes as the input itself: left behind here,
    // where the caller can move it.
    if (const ParmVarDecl *Placing = parameterPlacing(Required.Inputs, Callee);
        Placing && isTensorType(Placing->getType().getNonReferenceType())) {
      unsigned InputIndex =
          Placing->getFunctionScopeIndex() + firstParameterArgument(Call);
      if (InputIndex < Call->getNumArgs()) {
        // The reason is the argument's own history; the call inside the
        // helper is the last note.
        Operand Fed = operandFor(Call->getArg(InputIndex));
        Origin InnerCall = Required.InnerCall;
        InnerCall.DeviceWords = Inputs.describe();
        Fed.Value.Origins.push_back(InnerCall);
        recordMixedSite(Call, calleeDisplayName(Call), std::move(Module),
                        std::move(Fed));
        continue;
      }
    }
    Operand Fed;
    Fed.E = Call;
    Fed.Spelling = Required.InnerCall.Subject;
    Fed.Value.Where = Inputs;
    // The notes are inside the helper, the device words this caller's. The
    // input's own history speaks of the helper's parameters unless it is
    // the host's.
    if (Inputs.isDefinitelyHost())
      for (const Origin &Step : llvm::reverse(Required.InputHistory))
        Fed.Value.addOrigin(Step);
    Origin InnerCall = Required.InnerCall;
    InnerCall.DeviceWords = Inputs.describe();
    Fed.Value.addOrigin(InnerCall);
    size_t Before = Result.MixedSites.size();
    recordMixedSite(Call, calleeDisplayName(Call), std::move(Module),
                    std::move(Fed));
    if (Result.MixedSites.size() > Before)
      Result.MixedSites.back().ModuleCalledInHelper = true;
  }
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
    if (!D) {
      // A field of the object, for a plain class's constructor or method.
      if (const auto *Field = dyn_cast_or_null<FieldDecl>(Key.second);
          Field && PlainClassOfMethod &&
          Field->getParent() == PlainClassOfMethod)
        Summary.Effects.push_back({Field, Value});
      continue;
    }
    // A field of an object the object holds (`memory_.states_`).
    if (const auto *Object = dyn_cast<FieldDecl>(D)) {
      if (const auto *Field = dyn_cast_or_null<FieldDecl>(Key.second);
          Field && PlainClassOfMethod &&
          Object->getParent() == PlainClassOfMethod)
        Summary.MemberObjectEffects.push_back({Object, Field, Value});
      continue;
    }
    if (Key.second) {
      // A field of an object parameter the caller shares, when changed.
      // Fields of other objects are not summarised.
      const auto *Parm = dyn_cast<ParmVarDecl>(D);
      const auto *Field = dyn_cast<FieldDecl>(Key.second);
      if (Parm && Field && Parm->getDeclContext() == Function &&
          callerSeesChangesTo(Parm) &&
          !isCallersObjectField(Value.Where, Parm, Field))
        Summary.ObjectParameterEffects.push_back({Parm, Field, Value});
      continue;
    }
    if (const auto *Parm = dyn_cast<ParmVarDecl>(D);
        Parm && Parm->getDeclContext() == Function) {
      if (callerSeesChangesTo(Parm))
        Summary.Effects.push_back({D, Value});
    } else if (SharedCaptures.contains(D)) {
      Summary.Effects.push_back({D, Value});
    }
  }
  for (const auto &[Key, Added] : AppendedOnEntry) {
    const auto *Field = dyn_cast_or_null<FieldDecl>(Key.second);
    if (!Field || !PlainClassOfMethod)
      continue;
    // A field of this object, of an object it holds, or of an object
    // parameter the caller shares: what the effects above cover too.
    const ValueDecl *Owner = Key.first;
    const auto *Parm = dyn_cast_or_null<ParmVarDecl>(Owner);
    bool CallerSees =
        !Owner ? Field->getParent() == PlainClassOfMethod
        : Parm ? Parm->getDeclContext() == Function && callerSeesChangesTo(Parm)
               : isa<FieldDecl>(Owner) &&
                     Owner->getDeclContext() == PlainClassOfMethod;
    if (CallerSees)
      Summary.Appends.push_back({Owner, Field, Added});
  }
  // In source order, not the map's (addresses): the same function gives the
  // same summary in every parse, which its text in other files' facts must.
  llvm::sort(Summary.Appends, [](const auto &A, const auto &B) {
    auto Where = [](const FunctionSummary::Append &Append) {
      return std::make_pair(
          Append.Owner ? Append.Owner->getLocation().getRawEncoding() : 0u,
          Append.Field->getLocation().getRawEncoding());
    };
    return Where(A) < Where(B);
  });
  llvm::sort(Summary.Effects, [](const auto &A, const auto &B) {
    return A.first->getLocation().getRawEncoding() <
           B.first->getLocation().getRawEncoding();
  });
  llvm::sort(Summary.ObjectParameterEffects, [](const auto &A, const auto &B) {
    return std::make_pair(A.Object->getFunctionScopeIndex(),
                          A.Field->getLocation().getRawEncoding()) <
           std::make_pair(B.Object->getFunctionScopeIndex(),
                          B.Field->getLocation().getRawEncoding());
  });
  llvm::sort(Summary.MemberObjectEffects, [](const auto &A, const auto &B) {
    return std::make_pair(A.Object->getLocation().getRawEncoding(),
                          A.Field->getLocation().getRawEncoding()) <
           std::make_pair(B.Object->getLocation().getRawEncoding(),
                          B.Field->getLocation().getRawEncoding());
  });
}

} // namespace detail
} // namespace torchtidy
