//===--- TransferInDatasetCheck.cpp - libtorch-transfer-in-dataset --------===//

#include "Checks/TransferInDatasetCheck.h"
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
  forEachCall(Method->getBody(), [&](const CallExpr *Call) {
    TransferTarget Target = transferTarget(Call);
    if (Target != TransferTarget::OffHost && Target != TransferTarget::Unknown)
      return;
    diag(Call->getExprLoc(),
         "'%0' moves data to %select{a device|the device}1 inside '%2', once "
         "per example; keep loading on the host and move each batch in the "
         "training loop")
        << calleeDisplayName(Call) << (Target == TransferTarget::OffHost)
        << MethodName;
    diag(Method->getLocation(),
         "'%0' produces the examples the data loader batches",
         DiagnosticIDs::Note)
        << MethodName;
  });
}

} // namespace torchtidy
