//===--- DeviceFlowCheck.h - Base of checks fed by the analysis -*- C++ -*-===//
//
// Checks built on the device-flow analysis all look at the same functions
// (definitions outside system headers) and read the shared, cached result;
// each one only turns its part of the result into diagnostics.
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
  using LibTorchCheck::LibTorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) final;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) final;
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
  llvm::DenseSet<clang::SourceLocation::UIntTy> ReportedSites;
};

} // namespace torchtidy

#endif // TORCHTIDY_CHECKS_DEVICEFLOWCHECK_H
