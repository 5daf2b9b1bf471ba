//===--- DeviceFlowCheck.cpp - Base of checks fed by the analysis ---------===//

#include "Checks/DeviceFlowCheck.h"
#include "Analysis/UnitAnalysis.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

void DeviceFlowCheck::registerMatchers(MatchFinder *Finder) {
  // Template patterns are skipped: their instantiations are analysed, and
  // each check reports a site once (isFirstReportAt).
  Finder->addMatcher(functionDecl(isDefinition(), hasBody(stmt()),
                                  unless(isExpansionInSystemHeader()))
                         .bind("function"),
                     this);
}

void DeviceFlowCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function");
  if (!Function || Function->isDependentContext())
    return;
  report(deviceFlowOf(Function), *Result.Context);
}

void DeviceFlowCheck::onEndOfTranslationUnit() { ReportedSites.clear(); }

} // namespace torchtidy
