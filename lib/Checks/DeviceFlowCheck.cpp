//===--- DeviceFlowCheck.cpp - Base of checks fed by the analysis ---------===//

#include "Checks/DeviceFlowCheck.h"
#include "Analysis/AnalysisContext.h"
#include "Analysis/ProjectFacts.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/StringSet.h"

#include <mutex>

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

DeviceFlowCheck::DeviceFlowCheck(llvm::StringRef Name,
                                 tidy::ClangTidyContext *Context)
    : LibTorchCheck(Name, Context),
      ProjectFactsIndex(Options.getLocalOrGlobal("ProjectFacts", "")) {}

void DeviceFlowCheck::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "ProjectFacts", ProjectFactsIndex);
}

void DeviceFlowCheck::onStartOfTranslationUnit() {
  if (ProjectFactsIndex.empty())
    return;
  std::string Error;
  const ProjectFacts *Facts = projectFactsIndex(ProjectFactsIndex, Error);
  if (!Facts) {
    // Every check of the analysis reads the option: one of them says so.
    static std::mutex Lock;
    static llvm::StringSet<> Reported;
    std::lock_guard<std::mutex> Guard(Lock);
    if (Reported.insert(ProjectFactsIndex).second)
      configurationDiag("cannot use the project facts: %0; calls of "
                        "functions other files define stay unknown",
                        DiagnosticIDs::Error)
          << Error;
  }
  useProjectFacts(Facts);
}

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
  report(deviceFlowOf(Function, *Result.Context), *Result.Context);
}

void DeviceFlowCheck::onEndOfTranslationUnit() {
  forgetDeviceFlowResults();
  ReportedSites.clear();
}

} // namespace torchtidy
