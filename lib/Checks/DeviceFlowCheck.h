//===--- DeviceFlowCheck.h - Base of checks fed by the analysis -*- C++ -*-===//
//
// Checks built on the device-flow analysis all look at the same functions
// (definitions outside system headers) and read the shared, cached result;
// each one only turns its part of the result into diagnostics.
//
// Option ProjectFacts (local or global): an index that `torchtidy --index`
// wrote. Given, a call of a function that another file of the project
// defines goes through that function's summary, as in a torchtidy run over
// the whole project; not given, such a call is unknown.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_CHECKS_DEVICEFLOWCHECK_H
#define TORCHTIDY_CHECKS_DEVICEFLOWCHECK_H

#include "Analysis/DeviceFlow.h"

#include "Checks/LibTorchCheck.h"
#include "llvm/ADT/DenseSet.h"

namespace torchtidy {

class DeviceFlowCheck : public LibTorchCheck {
public:
  DeviceFlowCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) final;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) final;
  void onStartOfTranslationUnit() final;
  void onEndOfTranslationUnit() final;

protected:
  /// Turns this check's part of a function's result into diagnostics.
  virtual void report(const DeviceFlowResult &Flow, clang::ASTContext &Ctx) = 0;

  /// True the first time a site is seen in this translation unit: each
  /// instantiation of a template is analysed, but a source location is
  /// reported once, whichever front-end shows it.
  bool isFirstReportAt(clang::SourceLocation Loc) {
    return ReportedSites.insert(Loc.getRawEncoding()).second;
  }

private:
  /// The ProjectFacts option; empty when the front-end provides the facts
  /// itself (the torchtidy command) or there are none.
  std::string ProjectFactsIndex;
  llvm::DenseSet<clang::SourceLocation::UIntTy> ReportedSites;
};

} // namespace torchtidy

#endif // TORCHTIDY_CHECKS_DEVICEFLOWCHECK_H
