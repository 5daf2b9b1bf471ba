//===--- LoopInvariantTransferCheck.cpp -
// libtorch-loop-invariant-transfer ===//

#include "Checks/LoopInvariantTransferCheck.h"
#include "Analysis/FunctionFacts.h"
#include "Analysis/UnitAnalysis.h"
#include "Checks/FindingWording.h"
#include "Model/TorchApi.h"

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {
void LoopInvariantTransferCheck::registerMatchers(MatchFinder *Finder) {
  // Anchored on loops, whose bodies are walked here: no parent map, which
  // clang-tidy would build over all of LibTorch. A function's own body is
  // walked too, for the copies it makes in every call.
  Finder->addMatcher(
      stmt(unless(isExpansionInSystemHeader()),
           anyOf(forStmt(), cxxForRangeStmt(), whileStmt(), doStmt()))
          .bind("loop"),
      this);
  Finder->addMatcher(
      functionDecl(isDefinition(), unless(isExpansionInSystemHeader()))
          .bind("function"),
      this);
}

void LoopInvariantTransferCheck::reportRebuilt(const InvariantOrigin &Origin) {
  if (!Origin.Rebuilt)
    return;
  if (classifyCall(Origin.Rebuilt) == TorchCallKind::FromBlob)
    diag(Origin.Rebuilt->getExprLoc(),
         "'torch::from_blob' wraps '%0' again here in every iteration",
         DiagnosticIDs::Note)
        << Origin.Holder->getName();
  else
    diag(Origin.Rebuilt->getExprLoc(),
         "'%0' builds the same tensor here each time", DiagnosticIDs::Note)
        << calleeDisplayName(Origin.Rebuilt);
}

void LoopInvariantTransferCheck::reportSameEveryIteration(
    SourceLocation Loc, llvm::StringRef What, const InvariantOrigin &Origin,
    bool ToTheDevice) {
  if (Origin.Holder) {
    diag(Loc, "'%0' copies '%1' to %select{a device|the device}2 in every "
              "iteration, but '%1' does not change in the loop; move it once "
              "before the loop")
        << What << Origin.Holder->getName() << ToTheDevice;
    diag(Origin.Holder->getLocation(),
         isa<FieldDecl>(Origin.Holder)
             ? "'%0' is a member of the object, which the loop does not "
               "change"
             : "'%0' is declared before the loop",
         DiagnosticIDs::Note)
        << Origin.Holder->getName();
  } else {
    diag(Loc, "'%0' copies a tensor that every iteration builds the same way "
              "to %select{a device|the device}1; build it on the device once, "
              "before the loop")
        << What << ToTheDevice;
  }
  reportRebuilt(Origin);
}

void LoopInvariantTransferCheck::checkLoop(const Stmt *Loop,
                                           const ASTContext &Ctx) {
  // An outer loop (epochs): a copy made directly in it runs once per pass
  // of the inner one, which costs next to nothing.
  if (containsRepeatedLoop(loopBody(Loop), Ctx))
    return;
  LoopInvariance Invariance(Loop, Ctx.getSourceManager());
  for (const InvariantTransfer &Found : Invariance.transfersOfSameTensor()) {
    bool ToTheDevice =
        transferTarget(Found.Transfer) == TransferTarget::OffHost;
    reportSameEveryIteration(Found.Site->getExprLoc(),
                             calleeDisplayName(Found.Site), Found.Origin,
                             ToTheDevice);
    if (Found.Parameter)
      diag(Found.Transfer->getExprLoc(), "'%0' copies parameter '%1' here",
           DiagnosticIDs::Note)
          << calleeDisplayName(Found.Transfer) << Found.Parameter->getName();
    diag(Loop->getBeginLoc(), "in this loop", DiagnosticIDs::Note);
  }
}

void LoopInvariantTransferCheck::checkFunction(const FunctionDecl *Function,
                                               const SourceManager &SM) {
  // A function that runs once per iteration of its callers' loops, or a
  // module's forward(), which runs once per batch.
  bool IsForward = isModuleForwardMethod(Function);
  const CallSite *LoopCall =
      IsForward
          ? nullptr
          : UnitAnalysis::of(Function->getASTContext()).loopCallOf(Function);
  if (!IsForward && !LoopCall)
    return;
  // A pass over data of its own (train_epoch()): its callers' loop is an
  // epoch loop, and what it copies at its start, it copies once per epoch.
  if (!IsForward &&
      containsRepeatedLoop(Function->getBody(), Function->getASTContext()))
    return;
  LoopInvariance Invariance = LoopInvariance::perCall(Function, SM);
  for (const InvariantTransfer &Found : Invariance.transfersOfSameTensor()) {
    // Built from constants in the function itself.
    if (!Found.Origin.Rebuilt)
      continue;
    const CallExpr *Call = Found.Transfer;
    diag(Call->getExprLoc(),
         "'%0' copies a tensor built from constants to %select{a device|the "
         "device}1 each time '%2' runs, %select{once per iteration of a "
         "loop|once per batch}3; build it on the device once, as a member "
         "or before the loop")
        << calleeDisplayName(Call)
        << (transferTarget(Call) == TransferTarget::OffHost)
        << Function->getNameAsString() << IsForward;
    reportRebuilt(Found.Origin);
    if (LoopCall)
      diag(LoopCall->Call->getExprLoc(), "'%0' is called in a loop here",
           DiagnosticIDs::Note)
          << Function->getNameAsString();
  }
}

void LoopInvariantTransferCheck::checkHostReplications(
    const FunctionDecl *Function) {
  if (Function->isDependentContext()) // Its instantiations are analysed.
    return;
  for (const HostModuleReplication &Found :
       deviceFlowOf(Function).HostReplications) {
    // In a loop here, or in a function called in every iteration of its
    // callers' loops.
    const CallSite *LoopCall =
        Found.Loop
            ? nullptr
            : UnitAnalysis::of(Function->getASTContext()).loopCallOf(Function);
    if (!Found.Loop && !LoopCall)
      continue;
    diag(Found.Call->getExprLoc(),
         "'data_parallel' copies every parameter of '%0' from the CPU to each "
         "device in every iteration, and reduces its gradients back to the "
         "CPU; move '%0' to the first device once, before the loop")
        << Found.Module.Spelling;
    addOriginNotes(*this, Found.Module);
    if (Found.Loop)
      diag(Found.Loop->getBeginLoc(), "in this loop", DiagnosticIDs::Note);
    else
      diag(LoopCall->Call->getExprLoc(), "'%0' is called in a loop here",
           DiagnosticIDs::Note)
          << Function->getNameAsString();
  }
}

void LoopInvariantTransferCheck::check(const MatchFinder::MatchResult &Result) {
  if (const auto *Loop = Result.Nodes.getNodeAs<Stmt>("loop")) {
    checkLoop(Loop, *Result.Context);
  } else if (const auto *Function =
                 Result.Nodes.getNodeAs<FunctionDecl>("function")) {
    checkFunction(Function, *Result.SourceManager);
    checkHostReplications(Function);
  }
}

} // namespace torchtidy
