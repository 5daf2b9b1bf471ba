//===--- DeviceFlowFindings.cpp - Sites reported to the checks ------------===//
//
// Where DeviceFlowPass decides what a site is: a device mix, a missing
// migration (one site, one finding), or a graph kept alive by a loop.
//
//===----------------------------------------------------------------------===//

#include "Analysis/DeviceFlowPass.h"
#include "Analysis/UnitAnalysis.h"
#include "Model/TorchApi.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace torchtidy {
namespace detail {

void DeviceFlowPass::checkOperands(const CallExpr *Call,
                                   llvm::StringRef CallName,
                                   llvm::ArrayRef<Operand> Operands,
                                   const Operand *Module) {
  if (!Module)
    noteCombinedParameters(Call, CallName, Operands);
  if (!Reporting)
    return;
  auto Exempt = [](const Operand &O) { return O.Value.isHostScalar(); };
  // Inputs against the module's weights first: that is where it fails.
  // A pair the callers check at their calls (the summary's requirements) is
  // reported there, once, not again here.
  if (Module)
    for (const Operand &Input : Operands)
      if (!Exempt(Input) &&
          mayConflict(Input.Value.Where, Module->Value.Where)) {
        if (!isModuleCheckedByCallers(Module->Value.Where, Input.Value.Where))
          recordMixedSite(Call, CallName, Input, *Module);
        return;
      }
  for (size_t I = 0; I < Operands.size(); ++I)
    for (size_t J = I + 1; J < Operands.size(); ++J)
      if (!Exempt(Operands[I]) && !Exempt(Operands[J]) &&
          mayConflict(Operands[I].Value.Where, Operands[J].Value.Where) &&
          !isCheckedByCallers(Operands[I].Value.Where,
                              Operands[J].Value.Where)) {
        recordMixedSite(Call, CallName, Operands[I], Operands[J]);
        return;
      }
}

/// Whether the operand is data that starts on the host by nature and that
/// the program is expected to move: a batch, wrapped memory, a literal.
static bool isUnmovedInput(const AbstractValue &V) {
  if (V.Origins.empty())
    return false;
  switch (V.Origins.front().K) {
  case Origin::Kind::DataLoaderBatch:
  case Origin::Kind::FromBlob:
  case Origin::Kind::TensorLiteral:
    return true;
  default:
    return false;
  }
}

std::optional<std::string>
DeviceFlowPass::migrationOf(const AbstractValue &V) const {
  for (const Origin &O : V.Origins) {
    if (O.K == Origin::Kind::PassedByCaller) {
      // Moved by a caller, in the caller's names: follow the parameter it
      // came in by instead, which this function can spell.
      const clang::ParmVarDecl *Parm = V.Where.FromParameter;
      if (!Parm || Parm->getName().empty())
        return std::nullopt;
      std::string Name = Parm->getNameAsString();
      // A module or options parameter has no device() to spell.
      if (!isTensorType(Parm->getType()) && !isDeviceSpecType(Parm->getType()))
        return std::nullopt;
      return isDeviceSpecType(Parm->getType()) ? ".to(" + Name + ")"
                                               : ".to(" + Name + ".device())";
    }
    if (O.K == Origin::Kind::Migration || O.K == Origin::Kind::ModuleMigration)
      return O.MoveCanBeRepeated ? std::optional(O.Detail) : std::nullopt;
    if (O.K == Origin::Kind::HelperResult ||
        O.K == Origin::Kind::HelperEffect ||
        O.K == Origin::Kind::ModuleCallInHelper) {
      // A helper moved it: its `.to(...)` is spelled with the helper's
      // names. Spell one with the device variable this function passed.
      const auto *Var = dyn_cast_or_null<VarDecl>(V.Where.DeviceVar);
      if (Var && !V.Where.Devices.isOnlyHost() &&
          (Var->hasGlobalStorage() || Var->getDeclContext() == Function))
        return ".to(" + Var->getNameAsString() + ")";
      return std::nullopt;
    }
  }
  return std::nullopt;
}

bool DeviceFlowPass::isCreatedInLoopAround(const AbstractValue &V,
                                           const Stmt *Site) const {
  const Stmt *Loop = Facts.innermostLoopAround(Site);
  const Origin *Created = V.findOrigin(Origin::Kind::Factory);
  return Loop && Created &&
         Ctx.getSourceManager().isPointWithin(Created->Loc, Loop->getBeginLoc(),
                                              Loop->getEndLoc());
}

void DeviceFlowPass::recordMixedSite(const CallExpr *Call,
                                     llvm::StringRef CallName, Operand Stayed,
                                     Operand Other) {
  // The side left on the host is the one that "stayed".
  if (!Stayed.Value.Where.isDefinitelyHost() &&
      Other.Value.Where.isDefinitelyHost())
    std::swap(Stayed, Other);
  // Already reported where its `.to()` result was dropped.
  if (Stayed.Value.findOrigin(Origin::Kind::DroppedMigration) ||
      Other.Value.findOrigin(Origin::Kind::DroppedMigration))
    return;
  if (!ReportedSites.insert(Call).second)
    return;

  MixedDeviceSite Site;
  Site.Call = Call;
  Site.IsModuleCall = Stayed.IsModule || Other.IsModule;
  Site.OpName = CallName.str();
  std::optional<std::string> Migration = migrationOf(Other.Value);
  // Options that hold a tensor elsewhere (a class weight) are no target:
  // the tensor they were given is what to move, where it is given.
  bool StayedIsTarget =
      !Stayed.E || !isModuleOptionsType(Stayed.E->getType());
  if (!StayedIsTarget) {
    // A plain mix: the notes show where the tensor was given.
  } else if (Stayed.IsModule) {
    // A model left on the host meets inputs that were moved: move the model.
    Site.MissingMigration = Migration.value_or(std::string());
  } else if (Migration && (Other.IsModule || isUnmovedInput(Stayed.Value) ||
                           (Stayed.Value.Where.isDefinitelyHost() &&
                            Other.E == lossPrediction(Call) &&
                            !isCreatedInLoopAround(Stayed.Value, Call)))) {
    // A host target against a prediction that was moved: the target should
    // have travelled the same way. (One a factory makes afresh in the loop
    // is a factory missing its device, a plain device mix.)
    Site.MissingMigration = *Migration;
    // Prefer the way its own sibling travelled (batch.data.to(d, true)).
    if (const Origin *FromBatch =
            Stayed.Value.findOrigin(Origin::Kind::DataLoaderBatch);
        FromBatch && FromBatch->Batch) {
      auto Sibling = SiblingMigrations.find(FromBatch->Batch);
      if (Sibling != SiblingMigrations.end())
        Site.MissingMigration = Sibling->second;
    }
  } else if (const Origin *FromBatch =
                 Stayed.Value.findOrigin(Origin::Kind::DataLoaderBatch);
             FromBatch && FromBatch->Batch &&
             Stayed.Value.Where.isDefinitelyHost()) {
    // A batch tensor that stayed on the host while its siblings moved. When
    // the value is computed from it (a model of unknown device fed a raw
    // `batch.data`), the fix is the batch read, not the value that finally
    // met the device.
    auto Sibling = SiblingMigrations.find(FromBatch->Batch);
    if (Sibling != SiblingMigrations.end()) {
      Site.MissingMigration = Sibling->second;
      if (!isUnmovedInput(Stayed.Value) && FromBatch->Read)
        Site.UnmovedSource = *FromBatch;
    }
  }
  Site.Stayed = std::move(Stayed);
  Site.Other = std::move(Other);
  Result.MixedSites.push_back(std::move(Site));
}

void DeviceFlowPass::mergeSitesOfOneRootCause() {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<MixedDeviceSite> &Sites = Result.MixedSites;
  // The CFG is walked in block order, not source order: the first use is
  // the first to end in the source, so that of nested sites the inner one,
  // evaluated first, comes first (`delta + c * gae`: the `*` meets `gae`
  // before the `+` meets what it computed).
  llvm::stable_sort(Sites, [&](const MixedDeviceSite &A,
                               const MixedDeviceSite &B) {
    // The whole call: CallExpr's own getBeginLoc/getEndLoc are an
    // operator call's operator.
    SourceRange RangeA = A.Call->getSourceRange(),
                RangeB = B.Call->getSourceRange();
    if (RangeA.getEnd() != RangeB.getEnd())
      return SM.isBeforeInTranslationUnit(RangeA.getEnd(), RangeB.getEnd());
    // Ending together, the one that starts later is inside the other.
    return SM.isBeforeInTranslationUnit(RangeB.getBegin(), RangeA.getBegin());
  });
  // Where the left-behind value's known history starts: the factory, the
  // batch read or the module's construction that put it on its device.
  // Values computed from it keep that history.
  using RootKey = std::pair<SourceLocation::UIntTy, unsigned>;
  auto RootOf = [](const MixedDeviceSite &Site) -> std::optional<RootKey> {
    const auto &History = Site.Stayed.Value.Origins;
    if (History.empty() || History.back().Loc.isInvalid())
      return std::nullopt;
    return RootKey{History.back().Loc.getRawEncoding(),
                   static_cast<unsigned>(History.back().K)};
  };
  std::vector<std::optional<RootKey>> Roots;
  for (const MixedDeviceSite &Site : Sites)
    Roots.push_back(RootOf(Site));
  // Each root's finding is where the fix goes: its first site that a
  // missing migration explains, else its first site.
  llvm::DenseMap<RootKey, size_t> Primary;
  for (size_t I = 0; I < Sites.size(); ++I)
    if (Roots[I]) {
      auto [It, IsFirst] = Primary.try_emplace(*Roots[I], I);
      if (!IsFirst && !Sites[It->second].MissingMigration &&
          Sites[I].MissingMigration)
        It->second = I;
    }
  std::vector<MixedDeviceSite> Merged;
  llvm::DenseMap<size_t, size_t> MergedIndexOf;
  for (size_t I = 0; I < Sites.size(); ++I)
    if (!Roots[I] || Primary.lookup(*Roots[I]) == I) {
      MergedIndexOf[I] = Merged.size();
      Merged.push_back(Sites[I]);
    }
  for (size_t I = 0; I < Sites.size(); ++I)
    if (Roots[I] && Primary.lookup(*Roots[I]) != I)
      Merged[MergedIndexOf[Primary.lookup(*Roots[I])]].LaterUses.push_back(
          Sites[I].Call);
  Sites = std::move(Merged);
}

void DeviceFlowPass::recordAccumulation(const Expr *Site,
                                        const Expr *Accumulator,
                                        const Expr *Added, bool IsContainer) {
  if (!Reporting || !Accumulator || !Added)
    return;
  Operand AddedOperand = operandFor(Added);
  if (AddedOperand.Value.Grad != GradHistory::Carries ||
      Facts.isInNoGradScope(Site))
    return;
  const Stmt *Loop = Facts.innermostLoopAround(Site);
  std::optional<StorageKey> Key = storageKeyOf(Accumulator);
  if (!Loop || !Key)
    return;
  // Storage that dies with the iteration takes its graph with it.
  if (Key->first && Facts.isDeclaredInside(Key->first, Loop))
    return;
  // A module's forward() builds one graph per call; its local storage
  // (the layer outputs a loop over layers keeps for later layers) dies with
  // the call, and its loops end with the layers, not with the data.
  if (const auto *Var = dyn_cast_or_null<VarDecl>(Key->first);
      Var && Var->hasLocalStorage() && isModuleForwardMethod(Function))
    return;
  // A piece of one value computed before the loop (`kept[i] = out[i][0]`,
  // a loop over one forward()'s outputs): every iteration keeps part of the
  // same graph, which does not grow with the loop.
  if (const Expr *Whole = viewedStorage(Added);
      Whole != ignoreValuePreserving(Added))
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Whole);
        Ref && !Facts.isDeclaredInside(Ref->getDecl(), Loop) &&
        !Facts.isModifiedInside(Ref->getDecl(), Loop))
      return;
  // Gradient accumulation on purpose: backward() through the accumulator.
  if (Facts.isBackpropagatedOrEscapes(*Key) ||
      (Key->first && Facts.isBackpropagatedOrEscapes({Key->first, nullptr})))
    return;
  if (!ReportedSites.insert(Site).second)
    return;
  RetainedGraphAccumulation Found;
  Found.Site = Site;
  Found.Added = Added;
  Found.Loop = Loop;
  Found.Accumulator = spelling(Accumulator);
  Found.AddedOperand = std::move(AddedOperand);
  Found.IsScalarTotal =
      !IsContainer &&
      (eval(Accumulator).ZeroDim ||
       isScalarFactoryCall(Key->second ? Key->second->getInClassInitializer()
                                       : nullptr));
  Result.Accumulations.push_back(std::move(Found));
}

const Stmt *DeviceFlowPass::hotLoopAround(const Stmt *Site) {
  // The hot loop is an innermost one: a sync directly in an epoch loop
  // runs once per epoch, whether the batch loop is written in it or in a
  // helper it calls.
  // An evaluation pass, or the evaluation branch of a loop shared with
  // training, reads each batch's result by design, once per epoch or run.
  // A loop over a few levels or heads is code written once, repeated: its
  // copies run once per iteration of the loop around it.
  // A branch that clears its own flag (`if (first) { ...; first = false; }`)
  // runs once per pass of its loop: once per epoch, not once per step.
  const Stmt *Loop = Facts.innermostRepeatedLoopAround(Site);
  if (!Loop || containsRepeatedLoop(loopBody(Loop), Ctx) ||
      Facts.isInPeriodicBranch(Site) || Facts.runOnceLoopAround(Site) == Loop ||
      Facts.isOnEvaluationBranch(Site, Loop) || callsPassOverData(Loop))
    return nullptr;
  // A test() whose callers switch the model to eval() before they call it
  // is an evaluation pass as much as a loop after eval() in the same body.
  ModeSwitch ModeOnEntry = ModeSwitch::None;
  if (Facts.modeSetBefore(Loop) == ModeSwitch::None)
    ModeOnEntry = UnitAnalysis::of(Ctx).modeOnEntry(Function);
  if (Facts.isEvaluationPass(Loop, ModeOnEntry))
    return nullptr;
  return Loop;
}

bool maySyncWithDevice(const Placement &Where) {
  return Where.isKnown() && !Where.isDefinitelyHost();
}

void DeviceFlowPass::recordHostSync(const CallExpr *Call) {
  if (Mode == PassMode::Summarize ? !FinalWalk : !Reporting)
    return;
  if (!synchronizesWithHost(Call))
    return;
  llvm::SmallVector<const Expr *, 4> Tensors = tensorOperands(Call);
  if (Tensors.empty())
    return;
  if (Mode == PassMode::Summarize) {
    // A copy in a loop of the helper's own is the helper's to answer for;
    // one in a loop over a few heads runs a few times per call.
    if (Facts.innermostRepeatedLoopAround(Call))
      return;
    // A call reports its first copy only: one is enough to fix.
    Operand Tensor = operandFor(Tensors.front());
    if (Summary.HostSyncs.empty() && maySyncWithDevice(Tensor.Value.Where))
      Summary.HostSyncs.push_back({std::move(Tensor.Value), Call->getExprLoc(),
                                   calleeDisplayName(Call), Tensor.Spelling});
    return;
  }
  const Stmt *Loop = hotLoopAround(Call);
  if (!Loop)
    return;
  Operand Tensor = operandFor(Tensors.front());
  if (!maySyncWithDevice(Tensor.Value.Where))
    return;
  // A loop that reads out a finished result (a demo printing an output row
  // by row) waits for the device once: each later copy waits for nothing.
  // That costs only where the loop runs again and again, inside a loop over
  // batches or in a function called once per step or frame; not once in
  // `main`, or in a demo that `main` calls once.
  bool ReadsOutResult = Facts.readsOutFinishedResult(Tensors.front(), Loop);
  if (ReadsOutResult && !Facts.innermostRepeatedLoopAround(Loop) &&
      UnitAnalysis::of(Ctx).runsAFixedNumberOfTimes(Function))
    return;
  // A loop reading out one result in a branch that runs once per pass of
  // the loop around it (a print of the first batch's labels) costs once
  // per pass too.
  if (ReadsOutResult && Facts.runOnceLoopAround(Loop))
    return;
  // A value the host needs in this very iteration (a size, a branch, the
  // program's next step) cannot wait for a logging interval; neither can
  // nonzero()'s result, whose size is what it computes.
  HostUse Use = isTensorType(Call->getType()) ? HostUse::Kept
                                              : Facts.hostUseOf(Call);
  if (Use == HostUse::Needed || sizesResultFromData(Call))
    return;
  if (!ReportedSites.insert(Call).second)
    return;
  HostSyncInLoop Found;
  Found.Call = Call;
  Found.Loop = Loop;
  Found.Use = Use;
  Found.What = calleeDisplayName(Call);
  Found.Tensor = std::move(Tensor);
  Found.ReadsOutResult = ReadsOutResult;
  Result.HostSyncs.push_back(std::move(Found));
}

void DeviceFlowPass::recordNonBlockingFromPageable(const CallExpr *Call,
                                                   const AbstractValue &Source,
                                                   const Placement &Target) {
  if (!Reporting || !requestsNonBlocking(Call))
    return;
  // Only a source known to be on the host, in memory known to be pageable,
  // makes the flag useless; a tensor parameter may well be pinned.
  if (!Source.Where.isDefinitelyHost() || Source.Memory != HostMemory::Pageable)
    return;
  if (!Target.isKnown() || Target.isDefinitelyHost())
    return;
  const Expr *Object = callObject(Call);
  // `x.to(d, true);` alone is reported as a discarded result.
  if (!Object || Facts.isDiscardedValue(Call))
    return;
  if (!ReportedSites.insert(Call).second)
    return;
  NonBlockingFromPageable Found;
  Found.Call = Call;
  Found.NonBlocking = nonBlockingArgument(Call);
  Found.Source = operandFor(Object);
  Found.Target = Target.describe();
  Result.NonBlockingCopies.push_back(std::move(Found));
}

} // namespace detail
} // namespace torchtidy
