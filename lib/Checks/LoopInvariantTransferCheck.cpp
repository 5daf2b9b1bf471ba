//===--- LoopInvariantTransferCheck.cpp -
// libtorch-loop-invariant-transfer ===//

#include "Checks/LoopInvariantTransferCheck.h"
#include "Analysis/FunctionFacts.h"
#include "Analysis/UnitAnalysis.h"
#include "Model/TorchApi.h"

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {
namespace {

/// The copies off the host that S makes itself, in source order: not those
/// of a loop or a lambda under it, which run as often as those say.
void collectTransfers(const Stmt *S,
                      llvm::SmallVectorImpl<const CallExpr *> &Out) {
  if (!S || isa<ForStmt, CXXForRangeStmt, WhileStmt, DoStmt, LambdaExpr>(S))
    return;
  if (const auto *Call = dyn_cast<CallExpr>(S);
      Call && classifyCall(Call) == TorchCallKind::Migration) {
    TransferTarget Target = transferTarget(Call);
    if ((Target == TransferTarget::OffHost ||
         Target == TransferTarget::Unknown) &&
        callObject(Call))
      Out.push_back(Call);
  }
  for (const Stmt *Child : S->children())
    collectTransfers(Child, Out);
}

/// The calls S makes itself of functions of the program that it defines
/// and that are not virtual: helpers whose body tells what each call does.
void collectHelperCalls(const Stmt *S,
                        llvm::SmallVectorImpl<const CallExpr *> &Out) {
  if (!S || isa<ForStmt, CXXForRangeStmt, WhileStmt, DoStmt, LambdaExpr>(S))
    return;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *Callee = Call->getDirectCallee()) {
      const FunctionDecl *Definition = Callee->getDefinition();
      const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
      if (Definition && Definition->getBody() &&
          !isInLibTorchNamespace(Definition) &&
          !Definition->getASTContext().getSourceManager().isInSystemHeader(
              Definition->getLocation()) &&
          !(Method && Method->isVirtual()))
        Out.push_back(Call);
    }
  for (const Stmt *Child : S->children())
    collectHelperCalls(Child, Out);
}

/// The argument a call passes for a parameter of its callee.
const Expr *argumentFor(const CallExpr *Call, const ParmVarDecl *Param) {
  unsigned Index = Param->getFunctionScopeIndex();
  // A member operator's object is its first argument.
  if (isa<CXXOperatorCallExpr>(Call) &&
      isa_and_nonnull<CXXMethodDecl>(Call->getDirectCallee()))
    ++Index;
  return Index < Call->getNumArgs() ? Call->getArg(Index) : nullptr;
}

} // namespace

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
  const SourceManager &SM = Ctx.getSourceManager();
  LoopInvariance Invariance(Loop, SM);
  llvm::SmallVector<const CallExpr *, 8> Transfers;
  collectTransfers(loopBody(Loop), Transfers);
  for (const CallExpr *Call : Transfers) {
    // The target too: a loop over devices copies to another each time.
    if (!llvm::all_of(Call->arguments(), [&](const Expr *Arg) {
          return Invariance.originOf(Arg).has_value();
        }))
      continue;
    std::optional<InvariantOrigin> Origin =
        Invariance.originOf(callObject(Call));
    // A zero buffer the loop then fills in place is not the same tensor at
    // the end of each iteration: it must be made again.
    if (!Origin || Invariance.isChangedInPlace(Call))
      continue;
    reportSameEveryIteration(Call->getExprLoc(), calleeDisplayName(Call),
                             *Origin,
                             transferTarget(Call) == TransferTarget::OffHost);
    diag(Loop->getBeginLoc(), "in this loop", DiagnosticIDs::Note);
  }
  checkHelperCalls(Loop, Invariance, SM);
}

void LoopInvariantTransferCheck::checkHelperCalls(
    const Stmt *Loop, const LoopInvariance &Invariance,
    const SourceManager &SM) {
  // A helper given the same arguments in every iteration copies the same
  // tensor when what it copies comes from a parameter it leaves alone
  // (`toDevice(weights, device)`).
  llvm::SmallVector<const CallExpr *, 8> Calls;
  collectHelperCalls(loopBody(Loop), Calls);
  for (const CallExpr *Call : Calls) {
    if (!llvm::all_of(Call->arguments(), [&](const Expr *Arg) {
          return Invariance.originOf(Arg).has_value();
        }))
      continue;
    const FunctionDecl *Helper = Call->getDirectCallee()->getDefinition();
    llvm::SmallVector<const CallExpr *, 4> Transfers;
    collectTransfers(Helper->getBody(), Transfers);
    LoopInvariance PerCall = LoopInvariance::sameArguments(Helper, SM);
    for (const CallExpr *Transfer : Transfers) {
      std::optional<InvariantOrigin> InHelper =
          PerCall.originOf(callObject(Transfer));
      const auto *Param =
          InHelper ? dyn_cast_or_null<ParmVarDecl>(InHelper->Holder) : nullptr;
      const Expr *Passed = Param ? argumentFor(Call, Param) : nullptr;
      if (!Passed || !llvm::all_of(Transfer->arguments(), [&](const Expr *Arg) {
            return PerCall.originOf(Arg).has_value();
          }))
        continue;
      std::optional<InvariantOrigin> Origin = Invariance.originOf(Passed);
      if (Invariance.isChangedInPlace(Call))
        break;
      reportSameEveryIteration(
          Call->getExprLoc(), Helper->getNameAsString(), *Origin,
          transferTarget(Transfer) == TransferTarget::OffHost);
      diag(Transfer->getExprLoc(), "'%0' copies parameter '%1' here",
           DiagnosticIDs::Note)
          << calleeDisplayName(Transfer) << Param->getName();
      diag(Loop->getBeginLoc(), "in this loop", DiagnosticIDs::Note);
      break; // One finding per call.
    }
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
  llvm::SmallVector<const CallExpr *, 8> Transfers;
  collectTransfers(Function->getBody(), Transfers);
  if (Transfers.empty())
    return;
  LoopInvariance Invariance = LoopInvariance::perCall(Function, SM);
  for (const CallExpr *Call : Transfers) {
    std::optional<InvariantOrigin> Origin =
        Invariance.originOf(callObject(Call));
    if (!Origin || !Origin->Rebuilt || Invariance.isChangedInPlace(Call))
      continue;
    diag(Call->getExprLoc(),
         "'%0' copies a tensor built from constants to %select{a device|the "
         "device}1 each time '%2' runs, %select{once per iteration of a "
         "loop|once per batch}3; build it on the device once, as a member "
         "or before the loop")
        << calleeDisplayName(Call)
        << (transferTarget(Call) == TransferTarget::OffHost)
        << Function->getNameAsString() << IsForward;
    reportRebuilt(*Origin);
    if (LoopCall)
      diag(LoopCall->Call->getExprLoc(), "'%0' is called in a loop here",
           DiagnosticIDs::Note)
          << Function->getNameAsString();
  }
}

void LoopInvariantTransferCheck::check(const MatchFinder::MatchResult &Result) {
  if (const auto *Loop = Result.Nodes.getNodeAs<Stmt>("loop"))
    checkLoop(Loop, *Result.Context);
  else if (const auto *Function =
               Result.Nodes.getNodeAs<FunctionDecl>("function"))
    checkFunction(Function, *Result.SourceManager);
}

} // namespace torchtidy
