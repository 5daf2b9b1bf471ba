//===--- TransferInDatasetCheck.cpp - libtorch-transfer-in-dataset --------===//

#include "Checks/TransferInDatasetCheck.h"
#include "Analysis/UnitAnalysis.h"
#include "Model/TorchApi.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

template <typename Callback>
static void forEachCall(const Stmt *S, Callback &&Visit) {
  if (!S)
    return;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    Visit(Call);
  for (const Stmt *Child : S->children())
    forEachCall(Child, Visit);
}

void TransferInDatasetCheck::registerMatchers(MatchFinder *Finder) {
  // Anchored on method definitions, whose bodies are walked here: no parent
  // map, which clang-tidy would build over all of LibTorch.
  Finder->addMatcher(
      cxxMethodDecl(isDefinition(), unless(isExpansionInSystemHeader()))
          .bind("method"),
      this);
}

void TransferInDatasetCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Method = Result.Nodes.getNodeAs<CXXMethodDecl>("method");
  if (!isDataPipelineMethod(Method))
    return;
  std::string MethodName =
      Method->getParent()->getNameAsString() + "::" + Method->getNameAsString();
  auto NoteMethod = [&] {
    diag(Method->getLocation(),
         "'%0' produces the examples the data loader batches",
         DiagnosticIDs::Note)
        << MethodName;
  };
  forEachCall(Method->getBody(), [&](const CallExpr *Call) {
    TransferTarget Target = transferTarget(Call);
    if (Target != TransferTarget::OffHost && Target != TransferTarget::Unknown)
      return;
    // `kernel.to(input.device())`: a transform's own tensor sent where the
    // example it was given is; the example's data stays where it is.
    if (const Expr *Followed = tensorWhoseDeviceIsTarget(Call))
      if (const auto *Ref =
              dyn_cast<DeclRefExpr>(ignoreValuePreserving(Followed));
          Ref && isa<ParmVarDecl>(Ref->getDecl()))
        return;
    diag(Call->getExprLoc(),
         "'%0' moves data to %select{a device|the device}1 inside '%2', once "
         "per example; keep loading on the host and move each batch in the "
         "training loop")
        << calleeDisplayName(Call) << (Target == TransferTarget::OffHost)
        << MethodName;
    NoteMethod();
  });
  // A transfer in a helper it calls, however many helpers deep, in this
  // file or (with the project's facts) in another: the analysis' summaries
  // say which calls move data, and where to for these arguments. One
  // transfer is one root cause, reported at the first call that makes it.
  if (Method->isDependentContext()) // Its instantiations are analysed.
    return;
  llvm::ArrayRef<TransferInHelper> Transfers =
      deviceFlowOf(Method).HelperTransfers;
  for (size_t I = 0; I < Transfers.size(); ++I) {
    const TransferInHelper &Transfer = Transfers[I];
    auto IsSameTransfer = [&](const TransferInHelper &Other) {
      return Other.Transfer == Transfer.Transfer;
    };
    if (llvm::any_of(Transfers.take_front(I), IsSameTransfer))
      continue;
    std::string Helper = calleeDisplayName(Transfer.Call);
    diag(Transfer.Call->getExprLoc(),
         "'%0' moves data to %1 inside '%2', once per example; keep loading "
         "on the host and move each batch in the training loop")
        << Helper << Transfer.Target.describe() << MethodName;
    diag(Transfer.Transfer, "'%0' moves it here, each time '%1' runs",
         DiagnosticIDs::Note)
        << Transfer.What << Helper;
    for (const TransferInHelper &Again : Transfers.drop_front(I + 1))
      if (IsSameTransfer(Again))
        diag(Again.Call->getExprLoc(), "'%0' moves data here too",
             DiagnosticIDs::Note)
            << calleeDisplayName(Again.Call);
    NoteMethod();
  }
}

} // namespace torchtidy
