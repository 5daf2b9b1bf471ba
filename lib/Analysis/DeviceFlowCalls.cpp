//===--- DeviceFlowCalls.cpp - What calls do to devices -------------------===//
//
// The call half of DeviceFlowPass::eval: factories, migrations, module calls,
// ops, assignments, and calls the model does not know.
//
//===----------------------------------------------------------------------===//

#include "Analysis/DeviceFlowPass.h"
#include "Analysis/UnitAnalysis.h"
#include "Model/TorchApi.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace torchtidy {
namespace detail {

/// Where an op (or a weightless module) runs: on its non-scalar operands'
/// device, and if they disagree (reported elsewhere), on the accelerator.
static AbstractValue whereItRuns(llvm::ArrayRef<AbstractValue> Inputs) {
  AbstractValue V;
  V.Where = Placement::unknown();
  // The first host input explains a host result (labels.index_select(0,
  // perm) comes from `labels`), unless an input off the host takes over.
  for (const AbstractValue &Input : Inputs)
    if (!Input.isHostScalar() && Input.Where.isKnown() &&
        (!V.Where.isKnown() || !Input.Where.isDefinitelyHost())) {
      V.Where = Input.Where;
      V.Origins = Input.Origins;
      if (!Input.Where.isDefinitelyHost())
        break;
    }
  // Inputs that cannot meet: the op throws (AbstractValue::FromFailingOp),
  // and so does whatever is computed from its result.
  V.FromFailingOp = llvm::any_of(Inputs, [&](const AbstractValue &Input) {
    return Input.FromFailingOp ||
           (!Input.isHostScalar() && Input.Where.isDefinitelyHost() &&
            V.Where.isKnown() && !V.Where.isDefinitelyHost() &&
            mayConflict(Input.Where, V.Where));
  });
  // A result computed from pageable inputs only is pageable, whether it is
  // a view of one of them or a new tensor; a view of a pinned input would
  // be pinned.
  bool AllPageable =
      !Inputs.empty() && llvm::all_of(Inputs, [](const AbstractValue &Input) {
        return Input.Memory == HostMemory::Pageable;
      });
  V.Memory = AllPageable ? HostMemory::Pageable : HostMemory::Unknown;
  return V;
}

AbstractValue DeviceFlowPass::newModuleOnHost(const Expr *Creation) {
  // A LibTorch module keeps the tensors its options hold (a loss's class
  // weight) as buffers, where they are.
  llvm::ArrayRef<const Expr *> Args;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Creation))
    Args = {Construct->getArgs(), Construct->getNumArgs()};
  else if (const auto *Call = dyn_cast<CallExpr>(Creation))
    Args = {Call->getArgs(), Call->getNumArgs()};
  const CXXRecordDecl *Class = moduleClassOf(Creation->getType());
  if (Class && isInLibTorchNamespace(Class)) {
    AbstractValue Given = optionsFrom(Args);
    if (Given.Where.State == Placement::Knowledge::Unknown)
      return AbstractValue::unknown();
    if (Given.Where.isKnown()) {
      Given.HoldsGivenTensors = true;
      return Given;
    }
  }
  // Modules create their parameters on the CPU.
  AbstractValue V;
  V.Where = Placement::host();
  V.addOrigin({Origin::Kind::ModuleConstruction, Creation->getBeginLoc(), "",
               "", "the CPU"});
  return V;
}

AbstractValue DeviceFlowPass::optionsFrom(llvm::ArrayRef<const Expr *> Args) {
  // New options hold no tensor; a copy holds what its source holds.
  AbstractValue Options;
  Options.Grad = GradHistory::None;
  for (const Expr *Arg : Args)
    if (moduleOptionsMayHoldTensors(Arg->getType()))
      Options = Options.join(eval(Arg));
  return Options;
}

AbstractValue DeviceFlowPass::evalOptionsCall(const CXXMemberCallExpr *Call) {
  const Expr *Object = Call->getImplicitObjectArgument();
  AbstractValue Options = eval(Object);
  // A getter (`options.weight()`): the tensor the options hold.
  if (isTensorType(Call->getType())) {
    llvm::erase_if(Options.Origins, [](const Origin &O) {
      return O.K == Origin::Kind::HeldByOptions;
    });
    return Options;
  }
  // A setter: the options hold what they are given, and hand themselves
  // back. (A second `.weight(...)` replaces the first; both are kept here,
  // joined, which only ever widens the devices.)
  bool GivenTensor = false;
  for (const Expr *Arg : Call->arguments()) {
    AbstractValue Given = eval(Arg);
    if (!isTensorType(Arg->getType()))
      continue;
    Given.addOrigin({Origin::Kind::HeldByOptions, Call->getExprLoc(),
                     spelling(Arg), Call->getMethodDecl()->getNameAsString(),
                     Given.Where.describe()});
    Options = Options.join(Given);
    GivenTensor = true;
  }
  if (GivenTensor)
    store(Object, Options);
  return Options;
}

AbstractValue DeviceFlowPass::evalCall(const CallExpr *Call) {
  if (const auto *Method = dyn_cast<CXXMemberCallExpr>(Call);
      Method && isModuleOptionsType(Method->getObjectType()))
    return evalOptionsCall(Method);
  if (std::optional<CheckpointCall> Checkpoint = checkpointCall(Call))
    return evalCheckpoint(Call, *Checkpoint);
  if (std::optional<DataParallelCall> Parallel = dataParallelCall(Call))
    return evalDataParallel(Call, *Parallel);
  // `*model`: the module itself, as `model` is.
  if (const Expr *Handle = dereferencedModuleHandle(Call))
    return eval(Handle);
  TorchCallKind Kind = classifyCall(Call);
  switch (Kind) {
  case TorchCallKind::Migration:
    return evalTensorMigration(Call);
  case TorchCallKind::ModuleMigration:
    return evalModuleMigration(Call);
  case TorchCallKind::ModuleForward:
    return evalModuleForward(Call);
  case TorchCallKind::ModuleConstruction:
    for (const Expr *Arg : Call->arguments())
      eval(Arg);
    return newModuleOnHost(Call);
  case TorchCallKind::Factory:
  case TorchCallKind::LikeFactory:
  case TorchCallKind::FromBlob:
  case TorchCallKind::TensorLiteral:
    return evalFactory(Call, Kind);
  default:
    break;
  }

  // `buf[i].copy_(v)`, `buf[i] = v`: buf, if it outlives the iteration,
  // keeps v's graph like `total += loss`. A container's slot written with
  // the same index in every iteration (`values[n] = critic(s)`) holds one
  // graph at a time: each write frees the last. A tensor's element written
  // in place chains every write's graph, whatever the index.
  if (std::optional<InPlaceWrite> Write = inPlaceWriteOf(Call);
      Write && !Facts.isSameEveryIteration(containerSlotIndex(Write->Target),
                                           Facts.innermostLoopAround(Call)))
    recordAccumulation(Call, viewedStorage(Write->Target), Write->Value,
                       /*IsContainer=*/true);

  // Assignments through operator= of tensors, devices and modules.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
      Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
    return evalAssignment(Op->getArg(0), Op->getArg(1), Op);

  const Expr *Object = callObject(Call);
  AbstractValue ObjectValue = Object ? eval(Object) : AbstractValue::unknown();
  llvm::SmallVector<AbstractValue, 4> ArgValues;
  for (unsigned I = 0; I < Call->getNumArgs(); ++I)
    ArgValues.push_back(eval(Call->getArg(I)));

  // x[i], x.select(0, i), parts[0], parts.at(i): part of a tensor, or an
  // element of a container of tensors (`auto parts = x.chunk(3)`), on the
  // whole's device and with its history (the index may be elsewhere).
  if (Object && viewedStorage(Call) != Call &&
      isTensorContainerType(Object->getType()))
    return ObjectValue; // An element: what the elements are.
  if (Object && viewedStorage(Call) != Call &&
      isTensorType(Object->getType())) {
    AbstractValue Part;
    Part.Where = ObjectValue.Where;
    Part.Origins = ObjectValue.Origins;
    // A view made without autograd has no history.
    Part.Grad =
        Facts.isInNoGradScope(Call) ? GradHistory::None : ObjectValue.Grad;
    // `x[i]` of a 1-D tensor is 0-dim: it meets any device. Where the rank
    // is not known, neither is that.
    std::optional<unsigned> Dropped = dimensionsDroppedByPart(Call);
    std::optional<unsigned> Whole =
        ObjectValue.ZeroDim ? std::optional(0u) : ObjectValue.Rank;
    if (Dropped && Whole && *Whole >= *Dropped) {
      Part.Rank = *Whole - *Dropped;
      Part.ZeroDim = Part.Rank == 0u;
    } else if ((!Dropped || *Dropped > 0) && !isIndexedWithTensor(Call)) {
      Part.MaybeZeroDim = true;
    }
    return Part;
  }

  // `net->parameters()`: the module's own tensors, where it is.
  if (isModuleTensorsAccessor(Call)) {
    AbstractValue Tensors;
    Tensors.Where = ObjectValue.Where;
    Tensors.Origins = ObjectValue.Origins;
    return Tensors;
  }

  switch (Kind) {
  case TorchCallKind::Op:
  case TorchCallKind::Reduction:
  case TorchCallKind::LossFunction:
  case TorchCallKind::InPlaceAccumulate:
    return evalOp(Call, Kind);
  case TorchCallKind::Detach: {
    ObjectValue.Grad = GradHistory::None;
    return ObjectValue;
  }
  case TorchCallKind::DeviceQuery: {
    AbstractValue V;
    V.Where = ObjectValue.Where;
    V.Origins = ObjectValue.Origins;
    return V;
  }
  case TorchCallKind::RequiresGrad: {
    AbstractValue V = Object ? ObjectValue : AbstractValue();
    // Only a leaf's flag can be set: it has no graph until used.
    if (V.Grad != GradHistory::Carries)
      V.Grad = GradHistory::Leaf;
    if (Object && isTensorType(Object->getType()))
      store(Object, V);
    return V;
  }
  case TorchCallKind::TensorOptionsSet: {
    const Expr *Spec = deviceArgument(Call);
    AbstractValue V = Object ? ObjectValue : AbstractValue();
    if (Spec)
      V.Where = deviceOf(Spec).Where;
    return V;
  }
  case TorchCallKind::TensorOptionsKeep:
    return Object ? ObjectValue : AbstractValue();
  case TorchCallKind::TupleElement:
    return ArgValues.front().element(*tupleElementIndex(Call));
  case TorchCallKind::TupleConstruction:
    return AbstractValue::tupleOf({ArgValues.begin(), ArgValues.end()});
  case TorchCallKind::ContainerAppend: {
    if (Call->getNumArgs() == 0)
      return AbstractValue::unknown();
    recordAccumulation(Call, Object, Call->getArg(Call->getNumArgs() - 1),
                       /*IsContainer=*/true);
    // The element added: the argument, or the tuple `emplace_back(s, r)`
    // builds in place from them.
    llvm::ArrayRef<AbstractValue> Parts =
        llvm::ArrayRef(ArgValues).drop_front(firstAppendedArgument(Call));
    if (Object && !Parts.empty())
      appendTo(Object, Parts.size() == 1 ? Parts.front()
                                         : AbstractValue::tupleOf(
                                               {Parts.begin(), Parts.end()}));
    return AbstractValue::unknown();
  }
  case TorchCallKind::ContainerClear:
    if (Object)
      store(Object, AbstractValue());
    return AbstractValue::unknown();
  case TorchCallKind::ContainerKeep:
  case TorchCallKind::ContainerIterator:
    return AbstractValue::unknown();
  default: {
    // `std::sample(buffer.begin(), buffer.end(), std::back_inserter(out),
    // n, rng)`: out gets some of buffer's elements.
    if (std::optional<StdCopy> Copy = stdCopyOf(Call)) {
      appendTo(Copy->Out, eval(Copy->Source));
      return AbstractValue::unknown();
    }
    // `memory_.reset(new ReplayMemory(n))`: a new object in the pointer.
    if (std::optional<UniquePtrReset> Reset = uniquePtrResetOf(Call))
      if (const ValueDecl *Owner = objectFieldsOwner(Reset->Pointer)) {
        applyConstructorEffects(Owner, Reset->Built);
        return AbstractValue::unknown();
      }
    // `std::transform(v.begin(), v.end(), v.begin(), f)`: whatever the
    // callee's summary says, writes through the iterators it is given are
    // not followed.
    if (!onlyReadsIterators(Call))
      for (const Expr *Arg : Call->arguments())
        forgetContainerWrittenThrough(Arg);
    // What a call of the user's function passes: the context of its body,
    // here or in the unit that defines it (CallerContext.h).
    if (Reporting)
      if (const FunctionDecl *Callee = Call->getDirectCallee();
          Callee &&
          (Callee->hasBody() || !Ctx.getSourceManager().isInSystemHeader(
                                    Ctx.getSourceManager().getExpansionLoc(
                                        Callee->getLocation())))) {
        Result.ArgumentsPassed[Call].assign(ArgValues.begin(), ArgValues.end());
        std::vector<ObjectFieldValues> &Objects =
            Result.ObjectFieldsPassed[Call];
        for (const Expr *Arg : Call->arguments())
          Objects.push_back(fieldsOfObject(Arg));
        if (isa<CXXMemberCallExpr>(Call))
          if (ObjectFieldValues Held = fieldsOfObject(callObject(Call));
              !Held.empty())
            Result.CallObjectFieldsPassed[Call] = std::move(Held);
      }
    AbstractValue Returned;
    if (applySummary(Call, ArgValues, Returned))
      return Returned;
    forgetWhatCalleeMayChange(Call);
    return AbstractValue::unknown();
  }
  }
}

void DeviceFlowPass::forgetWhatCalleeMayChange(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  // The model knows what LibTorch calls do; the standard library's handle
  // accessors (shared_ptr::operator->, get) do not move anything.
  if (Callee && (isInLibTorchNamespace(Callee) || isInStandardLibrary(Callee)))
    return;
  // Modules are shared handles: a callee can move the caller's module. A
  // tensor bound to a non-const reference can be rebound.
  const Expr *Object = callObject(Call);
  if (Object && isModuleType(Object->getType()))
    store(Object, AbstractValue::unknown());
  noteObjectMayMove(Object);
  for (const Expr *Arg : Call->arguments())
    noteObjectMayMove(Arg);
  // An object whose method the callee is may have its fields rebound,
  // unless the method is const.
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
  if (Object && !(Method && Method->isConst()))
    forgetFieldsOf(Object);
  // A container of tensors changed by a method the model does not know
  // (`assign`, `swap`).
  if (Object && !(Method && Method->isConst()) &&
      isTensorContainerType(Object->getType()))
    store(Object, AbstractValue::unknown());
  bool ObjectIsArgument = isa<CXXOperatorCallExpr>(Call) && Object;
  for (unsigned I = ObjectIsArgument ? 1 : 0; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I);
    unsigned ParamIndex = ObjectIsArgument ? I - 1 : I;
    bool ByMutableReference = true; // Unknown callee: assume the worst.
    if (Callee && ParamIndex < Callee->getNumParams()) {
      QualType Param = Callee->getParamDecl(ParamIndex)->getType();
      ByMutableReference = (Param->isReferenceType() || Param->isPointerType()) &&
                           !Param->getPointeeType().isConstQualified();
    }
    TorchValueKind Kind = classifyType(Arg->getType());
    if (Kind == TorchValueKind::None) {
      if (ByMutableReference)
        forgetFieldsOf(Arg);
      continue;
    }
    if (Kind == TorchValueKind::Module || ByMutableReference)
      store(Arg, AbstractValue::unknown());
  }
}

void DeviceFlowPass::forgetContainerWrittenThrough(const Expr *Iterator) {
  const auto *Call =
      dyn_cast<CXXMemberCallExpr>(ignoreValuePreserving(Iterator));
  const Expr *Container = iteratedContainer(Iterator);
  if (Container && !Call->getMethodDecl()->isConst())
    store(Container, AbstractValue::unknown());
}

void DeviceFlowPass::forgetFieldsOf(const Expr *Object) {
  if (!Object)
    return;
  const Expr *Bare = Object->IgnoreParenImpCasts();
  if (const auto *AddressOf = dyn_cast<UnaryOperator>(Bare);
      AddressOf && AddressOf->getOpcode() == UO_AddrOf)
    Bare = AddressOf->getSubExpr();
  // `memory_.get()`, `*memory_`: the object a std::unique_ptr owns.
  if (const Expr *Pointer = uniquePtrReached(Bare))
    Bare = Pointer;
  if (isThisObject(Bare)) {
    // The fields of this function's own object, read before any store as
    // what the call started with, are now whatever the callee left; so are
    // those of the objects it holds.
    if (PlainClassOfMethod)
      for (const FieldDecl *Field : PlainClassOfMethod->fields()) {
        if (classifyType(Field->getType()) != TorchValueKind::None)
          (*Current)[{nullptr, Field}] = AbstractValue::unknown();
        else if (plainUserClassOf(Field->getType()))
          forgetFieldsKeptUnder(Field);
      }
    Memo.clear();
    return;
  }
  std::optional<StorageKey> Key = storageKeyOf(Bare);
  if (!Key || (Key->first && Key->second))
    return;
  forgetFieldsKeptUnder(Key->first ? Key->first : Key->second);
}

void DeviceFlowPass::forgetFieldsKeptUnder(const ValueDecl *Owner) {
  // An element of a container bound by reference: one element changed.
  if (const Expr *Container = ElementReferences.lookup(Owner))
    store(Container, AbstractValue::unknown());
  for (auto &[Stored, Value] : *Current)
    if (Stored.first == Owner && Stored.second)
      Value = AbstractValue::unknown();
  // Stored as unknown rather than left out: an object field of this
  // method's object that is not in the state reads as what it held on
  // entry.
  if (const CXXRecordDecl *Class =
          plainUserClassOf(Owner->getType().getNonReferenceType()))
    for (const FieldDecl *Field : Class->fields())
      if (classifyType(Field->getType()) != TorchValueKind::None)
        (*Current)[{Owner, Field}] = AbstractValue::unknown();
  Memo.clear();
}

AbstractValue DeviceFlowPass::deviceOf(const Expr *DeviceSpec) {
  AbstractValue V = eval(DeviceSpec);
  AbstractValue Result;
  Result.Where = V.Where;
  Result.Grad = V.Grad; // requires_grad(true) travels in options.
  return Result;
}

AbstractValue DeviceFlowPass::evalFactory(const CallExpr *Call,
                                          TorchCallKind Kind) {
  for (const Expr *Arg : Call->arguments())
    eval(Arg);
  AbstractValue V;
  V.Grad = GradHistory::None;
  if (const Expr *Spec = deviceArgument(Call)) {
    AbstractValue Options = deviceOf(Spec);
    V.Where = Options.Where;
    if (Options.Grad == GradHistory::Leaf)
      V.Grad = GradHistory::Leaf;
  }
  // zeros_like(x): the tensor whose device (and memory) it may follow.
  std::optional<AbstractValue> Like;
  if (llvm::SmallVector<const Expr *, 4> Tensors = tensorOperands(Call);
      Kind == TorchCallKind::LikeFactory && !Tensors.empty())
    Like = eval(Tensors.front());
  if (!V.Where.isKnown() && V.Where.State == Placement::Knowledge::Unset) {
    if (Like) {
      V.Where = Like->Where;
      V.Origins = Like->Origins;
      V.ZeroDim = Like->ZeroDim;
    } else {
      V.Where = Placement::host();
    }
  }
  V.Rank = Like ? Like->Rank : factoryRank(Call);
  // factoryRank says 0 for the scalar factories too.
  V.ZeroDim = V.ZeroDim || V.Rank == 0u;
  // New tensors are in pageable host memory unless their options pin it. A
  // *_like factory not told either way might follow its model tensor, so it
  // is pageable only when that tensor is.
  std::optional<bool> Pinned = requestsPinnedMemory(Call);
  if (!Pinned)
    V.Memory = HostMemory::Unknown;
  else if (*Pinned)
    V.Memory = HostMemory::Pinned;
  else if (Like)
    V.Memory = Like->Memory == HostMemory::Pageable ? HostMemory::Pageable
                                                    : HostMemory::Unknown;
  else
    V.Memory = HostMemory::Pageable;
  Origin::Kind OriginKind =
      Kind == TorchCallKind::FromBlob        ? Origin::Kind::FromBlob
      : Kind == TorchCallKind::TensorLiteral ? Origin::Kind::TensorLiteral
                                             : Origin::Kind::Factory;
  V.addOrigin({OriginKind, Call->getBeginLoc(), spelling(Call),
               calleeDisplayName(Call), V.Where.describe()});
  if (Facts.isInNoGradScope(Call))
    V.Grad = GradHistory::None;
  return V;
}

/// The host memory of a migration's result, should the result be on the
/// host: the source itself (`.to()` returns it when nothing changes) or a
/// host-side conversion of it, pageable when the source is; or a fresh copy
/// back from a device, pageable unless the copy was non_blocking, which
/// newer LibTorch versions make into pinned memory.
static HostMemory migratedMemory(const AbstractValue &Source,
                                 const Placement &Result, bool NonBlocking) {
  if (!Result.mayBeOnHost())
    return HostMemory::Unknown;
  HostMemory FromHost = Source.Memory == HostMemory::Pageable
                            ? HostMemory::Pageable
                            : HostMemory::Unknown;
  HostMemory FromDevice =
      NonBlocking ? HostMemory::Unknown : HostMemory::Pageable;
  bool OnHost = Source.Where.mayBeOnHost();
  bool OffHost = Source.Where.mayBeOffHost();
  if (OnHost && OffHost)
    return join(FromHost, FromDevice);
  return OnHost ? FromHost : FromDevice;
}

AbstractValue DeviceFlowPass::evalTensorMigration(const CallExpr *Call) {
  const Expr *Object = callObject(Call);
  AbstractValue Source = Object ? eval(Object) : AbstractValue::unknown();
  for (const Expr *Arg : Call->arguments())
    eval(Arg);
  llvm::StringRef Name = Call->getDirectCallee()->getName();

  AbstractValue V = Source;
  if (Name == "cuda") {
    V.Where = Placement::on(DeviceSet::of({"cuda", -1}));
  } else if (Name == "cpu") {
    V.Where = Placement::host();
  } else if (const Expr *Like = deviceSourceTensorArgument(Call)) {
    V.Where = eval(Like).Where;
  } else if (const Expr *Spec = deviceArgument(Call)) {
    Placement Target = deviceOf(Spec).Where;
    if (Target.State != Placement::Knowledge::Unset)
      V.Where = Target; // Options without a device keep the device.
  }
  if (V.Where != Source.Where || Name != "to") {
    // Where the copy came from no longer explains where it is.
    V.Origins.clear();
    bool ToHost = V.Where.isDefinitelyHost();
    V.addOrigin({ToHost ? Origin::Kind::HostCopy : Origin::Kind::Migration,
                 Call->getExprLoc(), Object ? spelling(Object) : "",
                 callSuffix(Call), V.Where.describe()});
  }
  if (Facts.isInNoGradScope(Call))
    V.Grad = GradHistory::None;
  V.Memory = migratedMemory(Source, V.Where, requestsNonBlocking(Call));
  recordNonBlockingFromPageable(Call, Source, V.Where);
  noteTransfer(Call, V);
  // batch.data.to(d): how this batch's tensors are meant to travel.
  if (const Origin *FromBatch =
          Source.findOrigin(Origin::Kind::DataLoaderBatch);
      FromBatch && FromBatch->Batch && !V.Where.isDefinitelyHost())
    SiblingMigrations[FromBatch->Batch] = callSuffix(Call);

  // `x.to(d);` alone: the moved copy is thrown away and x stays put. A
  // conversion that names no device (`x.to(torch::kLong);`) moves nothing
  // whether or not its result is kept.
  if (Object && transferTarget(Call) != TransferTarget::None &&
      Facts.isDiscardedValue(Call)) {
    if (Reporting && ReportedSites.insert(Call).second) {
      DroppedMigration Dropped;
      Dropped.Call = Call;
      Dropped.Object = operandFor(Object);
      Dropped.Migration = callSuffix(Call);
      const Expr *Target = Object->IgnoreParenImpCasts();
      Dropped.Assignable = storageKeyOf(Target).has_value() &&
                           !Target->getType().isConstQualified() &&
                           Target->isLValue();
      Dropped.VoidCast = Facts.voidCastDiscarding(Call);
      Result.DroppedMigrations.push_back(std::move(Dropped));
    }
    AbstractValue Stayed = Source;
    Stayed.addOrigin({Origin::Kind::DroppedMigration, Call->getExprLoc(),
                      spelling(Object), callSuffix(Call),
                      Source.Where.describe()});
    store(Object, Stayed);
  }
  return V;
}

AbstractValue DeviceFlowPass::evalModuleMigration(const CallExpr *Call) {
  const Expr *Object = callObject(Call);
  for (const Expr *Arg : Call->arguments())
    eval(Arg);
  if (!Object)
    return AbstractValue::unknown();
  noteObjectMayMove(Object);
  AbstractValue Module = eval(Object);
  llvm::StringRef Name = Call->getDirectCallee()->getName();
  Placement Target = Placement::unset();
  if (Name == "cuda")
    Target = Placement::on(DeviceSet::of({"cuda", -1}));
  else if (Name == "cpu")
    Target = Placement::host();
  else if (const Expr *Spec = deviceArgument(Call))
    Target = deviceOf(Spec).Where;
  if (Target.State == Placement::Knowledge::Unset)
    return AbstractValue::unknown(); // module->to(torch::kFloat)
  // Modules move in place: the module itself is now there, and where it was
  // created no longer matters.
  Module.Where = Target;
  Module.Origins.clear();
  Module.addOrigin({Origin::Kind::ModuleMigration, Call->getExprLoc(),
                    spelling(Object), callSuffix(Call), Target.describe()});
  store(Object, Module);
  return AbstractValue::unknown();
}

AbstractValue
DeviceFlowPass::evalDataParallel(const CallExpr *Call,
                                 const DataParallelCall &Parallel) {
  for (const Expr *Arg : Call->arguments())
    eval(Arg);
  // Where the output is gathered: output_device, else the first device, else
  // cuda:0 (every CUDA device, in order).
  Placement Output = Placement::unknown();
  if (Parallel.OutputDevice)
    Output = deviceOf(Parallel.OutputDevice).Where;
  else if (!Parallel.DeviceList.empty())
    Output = deviceOf(Parallel.DeviceList.front()).Where;
  else if (!Parallel.DevicesGiven)
    Output = Placement::on(DeviceSet::of({"cuda", 0}));
  // With one device the module itself moves there; with every CUDA device,
  // so it does on a machine with one GPU (and stays where it is on one with
  // more); a list the call does not spell may have one device.
  const Expr *ModuleExpr = ignoreValuePreserving(Parallel.Module);
  noteObjectMayMove(ModuleExpr);
  AbstractValue Module = eval(ModuleExpr);
  // Cloned from the host on every call: the checks say whether the call
  // repeats (in a loop here, or in a function its callers call in one).
  if (Reporting && Parallel.DeviceList.size() > 1 &&
      Module.Where.isDefinitelyHost()) {
    Operand Replicated = operandFor(Parallel.Module);
    Replicated.IsModule = true;
    Result.HostReplications.push_back(
        {Call, Facts.innermostRepeatedLoopAround(Call), std::move(Replicated)});
  }
  AbstractValue Moved = Module;
  Moved.Origins.clear();
  if (Parallel.DeviceList.size() == 1) {
    Moved.Where = deviceOf(Parallel.DeviceList.front()).Where;
  } else if (!Parallel.DevicesGiven) {
    Moved.Where = Placement::on(DeviceSet::of({"cuda", 0}));
  } else if (Parallel.DeviceList.empty()) {
    Moved = AbstractValue::unknown();
  } else {
    Moved = Module; // Cloned to each device; the module stays.
  }
  // A module already there keeps its history.
  if (Moved.Where.isKnown() && Moved.Where != Module.Where) {
    Origin MovedBy{Origin::Kind::ModuleMigration, Call->getExprLoc(),
                   spelling(ModuleExpr), "data_parallel",
                   Moved.Where.describe()};
    MovedBy.MoveCanBeRepeated = false;
    Moved.addOrigin(std::move(MovedBy));
    if (!Parallel.DevicesGiven)
      Moved = Moved.join(Module);
    store(ModuleExpr, Moved);
  } else if (!Moved.Where.isKnown() && Module.Where.isKnown()) {
    store(ModuleExpr, Moved);
  }
  AbstractValue V;
  V.Where = Output;
  V.Grad =
      Facts.isInNoGradScope(Call) ? GradHistory::None : GradHistory::Carries;
  if (Output.isKnown())
    V.addOrigin({Origin::Kind::ModuleOutput, callBegin(Call), "data_parallel",
                 "", Output.describe()});
  return V;
}

AbstractValue DeviceFlowPass::evalCheckpoint(const CallExpr *Call,
                                             const CheckpointCall &Checkpoint) {
  for (const Expr *Arg : Call->arguments())
    eval(Arg);
  // The file is named by the same variable or literal at both ends of a
  // round trip within the function.
  std::string File = writtenText(
      ignoreValuePreserving(Checkpoint.Path)->getSourceRange(), Ctx);
  if (!isModuleType(Checkpoint.Value->getType()) || File.empty())
    return AbstractValue::unknown();
  if (!Checkpoint.IsLoad) {
    AbstractValue Saved = eval(Checkpoint.Value);
    auto [It, Inserted] = SavedCheckpoints.try_emplace(File, Saved);
    if (!Inserted)
      It->second = It->second.join(Saved);
    return AbstractValue::unknown();
  }
  // A load without a device restores each tensor where it was saved from:
  // known when this function saved that file; otherwise the module is taken
  // to stay where it is (a checkpoint of another run was most likely saved
  // from where this run moves the model next).
  Placement Restored = Placement::unset();
  if (Checkpoint.Device)
    Restored = deviceOf(Checkpoint.Device).Where;
  else if (auto It = SavedCheckpoints.find(File); It != SavedCheckpoints.end())
    Restored = It->second.Where;
  if (!Restored.isKnown())
    return AbstractValue::unknown();
  AbstractValue Module = eval(Checkpoint.Value);
  Module.Where = Restored;
  Module.Origins.clear();
  Module.addOrigin({Origin::Kind::CheckpointLoad, Call->getExprLoc(),
                    spelling(Checkpoint.Value), File, Restored.describe()});
  store(Checkpoint.Value, Module);
  return AbstractValue::unknown();
}

AbstractValue DeviceFlowPass::evalModuleForward(const CallExpr *Call) {
  const Expr *Object = callObject(Call);
  Operand Module;
  if (Object) {
    Module = operandFor(Object);
    Module.IsModule = true;
  }
  llvm::SmallVector<Operand, 4> Inputs;
  for (const Expr *Arg : tensorOperands(Call))
    if (Arg != Object)
      Inputs.push_back(operandFor(Arg));
  for (const Expr *Arg : Call->arguments())
    eval(Arg);

  const CXXRecordDecl *ModuleClass =
      Object ? moduleClassOf(Object->getType()) : nullptr;
  std::optional<bool> HoldsParameters;
  if (std::optional<ModuleParametersFact> Parameters =
          UnitAnalysis::of(Ctx).moduleParametersOf(ModuleClass)) {
    HoldsParameters = Parameters->HoldsParameters;
    // Known from another file: a finding that rests on it says where.
    if (*HoldsParameters && Parameters->Constructor.isValid())
      Module.Value.addOldestOrigin({Origin::Kind::ModuleParameters,
                                    Parameters->Constructor,
                                    ModuleClass->getNameAsString(), "", ""});
  }
  // A module holds state where its class registers parameters, or where
  // it was built from options that hold tensors.
  bool HasDevice = Module.Value.Where.isKnown() &&
                   (HoldsParameters == true || Module.Value.HoldsGivenTensors);
  // What a summary asks of its callers comes from the module's class; the
  // tensors one instance was given are checked where it is called.
  if (HoldsParameters != true)
    Module.Value.Where.FromParameter = nullptr;
  checkOperands(Call, Module.Spelling, Inputs, HasDevice ? &Module : nullptr);
  if (HasDevice)
    noteModuleInputs(Call, Module, Inputs);

  llvm::SmallVector<AbstractValue, 4> InputValues;
  for (const Operand &Input : Inputs)
    InputValues.push_back(Input.Value);

  // A module that the callers must place where its inputs are, as they are
  // told at their calls: from here on the code is judged as it runs once
  // they do, so what the module computes is not a second finding here.
  bool PlacedByCallers =
      HasDevice && llvm::any_of(Inputs, [&](const Operand &Input) {
        return !Input.Value.isHostScalar() &&
               mayConflict(Input.Value.Where, Module.Value.Where) &&
               isModuleCheckedByCallers(Module.Value.Where, Input.Value.Where);
      });
  AbstractValue V;
  if (PlacedByCallers) {
    V = whereItRuns(InputValues);
  } else if (HasDevice && HoldsParameters == true) {
    V.Where = Module.Value.Where;
    V.Origins = Module.Value.Origins;
  } else {
    // No weights of its own: the output follows the inputs. So it does for
    // a module whose place is not known (it is presumably where the program
    // sends its inputs). Whether a module of unknown weights runs where it
    // is or where its inputs are is not known: only where the two agree.
    V = whereItRuns(InputValues);
    if (!HoldsParameters && Module.Value.Where.isKnown() &&
        V.Where.join(Module.Value.Where) != V.Where)
      V.Where = Placement::unknown();
  }
  V.ZeroDim = moduleReturnsScalar(ModuleClass);
  V.Grad = Facts.isInNoGradScope(Call)
               ? GradHistory::None
               : (HoldsParameters == true ? GradHistory::Carries
                                          : resultGrad(Call, InputValues));
  // A forward() of the user's may hand out no history on every path the
  // program takes (a sample drawn under NoGradGuard while training): its
  // summary says so.
  if (V.Grad == GradHistory::Carries)
    if (const CXXMethodDecl *Forward = userForwardCalled(Call, ModuleClass))
      if (const FunctionDecl *Definition = Forward->getDefinition())
        if (const FunctionSummary *Summary =
                UnitAnalysis::of(Ctx).summaryOf(Definition);
            Summary && Summary->Result.Grad == GradHistory::None)
          V.Grad = GradHistory::None;
  // Weightless modules (losses, activations) pass their inputs' history on.
  if (HoldsParameters == true)
    V.addOrigin({Origin::Kind::ModuleOutput, callBegin(Call),
                 Module.Spelling, "", V.Where.describe()});
  return V;
}

AbstractValue DeviceFlowPass::evalOp(const CallExpr *Call, TorchCallKind Kind) {
  llvm::SmallVector<Operand, 4> Operands;
  for (const Expr *E : tensorOperands(Call))
    Operands.push_back(operandFor(E));
  checkOperands(Call, calleeDisplayName(Call), Operands, nullptr);

  llvm::SmallVector<AbstractValue, 4> Values;
  for (const Operand &O : Operands)
    Values.push_back(O.Value);

  AbstractValue V = whereItRuns(Values);
  if (!V.Where.isKnown() && !Values.empty() &&
      llvm::all_of(Values,
                   [](const AbstractValue &X) { return X.isHostScalar(); })) {
    V.Where = Placement::host();
    V.Origins = Values.front().Origins;
  }
  llvm::SmallVector<std::optional<unsigned>, 4> Ranks;
  for (const AbstractValue &Value : Values)
    Ranks.push_back(Value.ZeroDim ? std::optional(0u) : Value.Rank);
  V.Rank = opResultRank(Call, Ranks);
  V.ZeroDim =
      Kind == TorchCallKind::Reduction || Kind == TorchCallKind::LossFunction ||
      V.Rank == 0u ||
      (!Values.empty() &&
       llvm::all_of(Values, [](const AbstractValue &X) { return X.ZeroDim; }));
  if (V.ZeroDim)
    V.Rank = 0;
  V.Grad = resultGrad(Call, Values);
  // .pin_memory() pins; reductions, losses and arithmetic make new
  // (pageable) tensors even from pinned ones; other ops keep what
  // whereItRuns says (pageable only from pageable inputs).
  if (isPinMemoryCall(Call))
    V.Memory = HostMemory::Pinned;
  else if (Kind == TorchCallKind::Reduction ||
           Kind == TorchCallKind::LossFunction || allocatesNewTensor(Call))
    V.Memory = HostMemory::Pageable;

  if (Kind == TorchCallKind::InPlaceAccumulate && !Operands.empty()) {
    // acc += x / acc.add_(x): acc keeps its device and shape, and gains x's
    // history.
    const Expr *Object = callObject(Call);
    AbstractValue Updated = Operands.front().Value;
    Updated.Grad = V.Grad;
    if (Object)
      store(Object, Updated);
    if (Object && Operands.size() > 1)
      recordAccumulation(Call, Object, Operands[1].E, /*IsContainer=*/false);
    return Updated;
  }
  return V;
}

AbstractValue DeviceFlowPass::aliasModule(const Expr *Source) {
  AbstractValue Value = eval(Source);
  // A second handle to the same module: moving either moves both, which the
  // per-variable state cannot follow. Forget both rather than guess.
  if (storageKeyOf(Source)) {
    store(Source, AbstractValue::unknown());
    return AbstractValue::unknown();
  }
  return Value;
}

AbstractValue DeviceFlowPass::evalAssignment(const Expr *Target,
                                             const Expr *Source,
                                             const Expr *Site) {
  // std::tie(recon, mu, logvar) = model->forward(x): each variable gets its
  // element.
  if (const auto *Tie = dyn_cast<CallExpr>(Target->IgnoreImplicit());
      Tie && isTieCall(Tie)) {
    AbstractValue Value = eval(Source);
    for (unsigned I = 0; I < Tie->getNumArgs(); ++I)
      store(Tie->getArg(I), Value.element(I));
    return Value;
  }
  if (plainUserClassOf(Target->getType())) {
    eval(Source);
    assignObject(Target, Source);
    return AbstractValue::unknown();
  }
  AbstractValue Value =
      isModuleType(Target->getType()) ? aliasModule(Source) : eval(Source);
  // `states[i] = s`: the container holds s too, among what it held.
  if (const Expr *Container = containerOfElement(Target)) {
    appendTo(Container, Value);
    return Value;
  }
  // acc = acc + x: an accumulation just like acc += x.
  if (std::optional<StorageKey> TargetKey = storageKeyOf(Target)) {
    if (const auto *Sum = dyn_cast<CallExpr>(ignoreValuePreserving(Source))) {
      llvm::SmallVector<const Expr *, 4> Terms = tensorOperands(Sum);
      const FunctionDecl *Callee = Sum->getDirectCallee();
      bool IsAdd = Callee && (Callee->getOverloadedOperator() == OO_Plus ||
                              Callee->getNameAsString() == "add");
      if (IsAdd && Terms.size() == 2) {
        for (int I = 0; I < 2; ++I)
          if (storageKeyOf(Terms[I]) == TargetKey)
            recordAccumulation(Site, Target, Terms[1 - I],
                               /*IsContainer=*/false);
      }
    }
  }
  store(Target, Value);
  return Value;
}

GradHistory
DeviceFlowPass::resultGrad(const Stmt *Site,
                           llvm::ArrayRef<AbstractValue> Inputs) const {
  if (Facts.isInNoGradScope(Site))
    return GradHistory::None;
  bool AllNone = !Inputs.empty();
  for (const AbstractValue &Input : Inputs) {
    // Computed from a tensor that requires grad: a graph node.
    if (Input.Grad == GradHistory::Carries || Input.Grad == GradHistory::Leaf)
      return GradHistory::Carries;
    AllNone &= Input.Grad == GradHistory::None;
  }
  return AllNone ? GradHistory::None : GradHistory::Unknown;
}

Operand DeviceFlowPass::operandFor(const Expr *E) {
  Operand O;
  O.E = E;
  O.Spelling = spelling(E);
  O.Value = eval(E);
  // A container's value is its elements': their shape is not the shape of
  // what the op makes of them (`torch::stack` of 0-dim losses is 1-D).
  if (isTensorContainerType(E->getType())) {
    O.Value.ZeroDim = O.Value.MaybeZeroDim = false;
    O.Value.Rank.reset();
  }
  return O;
}

} // namespace detail
} // namespace torchtidy
