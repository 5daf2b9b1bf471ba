//===--- MixedDeviceOperandsCheck.cpp - libtorch-mixed-device-operands ----===//

#include "Checks/MixedDeviceOperandsCheck.h"
#include "Checks/FindingWording.h"
#include "Model/SourceText.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"

using namespace clang;

namespace torchtidy {

MixedDeviceOperandsCheck::MixedDeviceOperandsCheck(
    llvm::StringRef Name, tidy::ClangTidyContext *Context)
    : DeviceFlowCheck(Name, Context),
      MigrationCheckEnabled(
          Context->isCheckEnabled("libtorch-missing-target-migration")) {}

void MixedDeviceOperandsCheck::report(const DeviceFlowResult &Flow,
                                      ASTContext &Ctx) {
  for (const MixedDeviceSite &Site : Flow.MixedSites) {
    if (Site.MissingMigration && MigrationCheckEnabled)
      continue;
    const Operand &Stayed = Site.Stayed;
    const Operand &Other = Site.Other;
    SourceLocation Loc =
        Site.IsModuleCall ? callBegin(Site.Call) : Site.Call->getExprLoc();
    if (!isFirstReportAt(Loc))
      continue;
    diag(Loc, "'%0' is on %1%2 but '%3' is on %4%5; '%6' needs all its tensor "
              "operands on one device")
        << Stayed.Spelling << Stayed.Value.Where.describe()
        << reasonInParens(Stayed.Value) << Other.Spelling
        << Other.Value.Where.describe() << reasonInParens(Other.Value)
        << Site.OpName;
    addThrowPathNotes(*this, Site);
    addOriginNotes(*this, Stayed);
    addOriginNotes(*this, Other);
    addLaterUseNotes(*this, Site);
  }
}

} // namespace torchtidy
