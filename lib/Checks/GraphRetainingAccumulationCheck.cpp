//===--- GraphRetainingAccumulationCheck.cpp -
// libtorch-graph-retaining-accumulation ===//

#include "Checks/GraphRetainingAccumulationCheck.h"
#include "Checks/FindingWording.h"

using namespace clang;

namespace torchtidy {

void GraphRetainingAccumulationCheck::report(const DeviceFlowResult &Flow,
                                             ASTContext &Ctx) {
  for (const RetainedGraphAccumulation &Found : Flow.Accumulations) {
    if (!isFirstReportAt(Found.Site->getExprLoc()))
      continue;
    llvm::StringRef Fix = Found.IsScalarTotal ? ".item<double>()" : ".detach()";
    {
      auto Diag =
          diag(Found.Site->getExprLoc(),
               "'%0' keeps '%1', which carries autograd history, across loop "
               "iterations; every iteration's graph stays alive until memory "
               "runs out; %select{keep a detached copy|add its value}2 with "
               "'%3'")
          << Found.Accumulator << Found.AddedOperand.Spelling
          << Found.IsScalarTotal << spellWithSuffix(Found.AddedOperand, Fix);
      for (const FixItHint &Hint : appendToExpression(Found.Added, Fix, Ctx))
        Diag << Hint;
    }
    diag(Found.Loop->getBeginLoc(), "in this loop", DiagnosticIDs::Note);
    if (const Origin *Graph =
            Found.AddedOperand.Value.findOrigin(Origin::Kind::ModuleOutput))
      diag(Graph->Loc, "'%0' carries the graph of this call of '%1'",
           DiagnosticIDs::Note)
          << Found.AddedOperand.Spelling << Graph->Subject;
  }
}

} // namespace torchtidy
