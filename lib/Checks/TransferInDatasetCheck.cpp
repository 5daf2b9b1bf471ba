//===--- TransferInDatasetCheck.cpp - libtorch-transfer-in-dataset --------===//

#include "Checks/TransferInDatasetCheck.h"
#include "Model/TorchApi.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

void TransferInDatasetCheck::registerMatchers(MatchFinder *Finder) {
  // Calls inside any method body outside system headers; the model decides
  // which methods produce examples and which calls transfer.
  Finder->addMatcher(callExpr(unless(isExpansionInSystemHeader()),
                              forCallable(cxxMethodDecl().bind("method")))
                         .bind("call"),
                     this);
}

void TransferInDatasetCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  const auto *Method = Result.Nodes.getNodeAs<CXXMethodDecl>("method");
  if (!isDataPipelineMethod(Method))
    return;
  TransferTarget Target = transferTarget(Call);
  if (Target != TransferTarget::OffHost && Target != TransferTarget::Unknown)
    return;
  std::string MethodName =
      Method->getParent()->getNameAsString() + "::" + Method->getNameAsString();
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
}

} // namespace torchtidy
