//===--- MissingTargetMigrationCheck.cpp - libtorch-missing-target-migration
//===//

#include "Checks/MissingTargetMigrationCheck.h"
#include "Checks/FindingWording.h"

using namespace clang;

namespace torchtidy {

void MissingTargetMigrationCheck::report(const DeviceFlowResult &Flow,
                                         ASTContext &Ctx) {
  for (const DroppedMigration &Dropped : Flow.DroppedMigrations)
    if (isFirstReportAt(Dropped.Call->getExprLoc()))
      reportDroppedMigration(Dropped, Ctx);
  for (const MixedDeviceSite &Site : Flow.MixedSites)
    if (Site.MissingMigration && isFirstReportAt(Site.Call->getBeginLoc()))
      reportLeftBehind(Site, Ctx);
}

void MissingTargetMigrationCheck::reportDroppedMigration(
    const DroppedMigration &Dropped, ASTContext &Ctx) {
  auto Diag = diag(Dropped.Call->getExprLoc(),
                   "result of '%0%1' is discarded; tensors do not move in "
                   "place, so '%0' stays on %2")
              << Dropped.Object.Spelling << Dropped.Migration
              << Dropped.Object.Value.Where.describe();
  if (Dropped.Assignable && !Dropped.Call->getBeginLoc().isMacroID())
    Diag << FixItHint::CreateInsertion(Dropped.Call->getBeginLoc(),
                                       Dropped.Object.Spelling + " = ");
}

void MissingTargetMigrationCheck::reportLeftBehind(const MixedDeviceSite &Site,
                                                   ASTContext &Ctx) {
  const Operand &Stayed = Site.Stayed;
  const Operand &Other = Site.Other;
  const std::string &Migration = *Site.MissingMigration;

  if (Stayed.IsModule) {
    // The model stayed on the host while its inputs moved.
    std::string Move =
        Migration.empty() ? std::string(".to(device)") : Migration;
    diag(Site.Call->getBeginLoc(),
         "'%0' is on %1%2 but its input '%3' is on %4; move the module with "
         "'%0%5%6' before calling it")
        << Stayed.Spelling << Stayed.Value.Where.describe()
        << reasonInParens(Stayed.Value) << Other.Spelling
        << Other.Value.Where.describe() << moduleAccessor(Stayed.E)
        << llvm::StringRef(Move).drop_front();
  } else if (Other.IsModule) {
    auto Diag = diag(Stayed.E->getBeginLoc(),
                     "input '%0' of '%1' is on %2%3 but the module is on %4; "
                     "move it with '%5'")
                << Stayed.Spelling << Other.Spelling
                << Stayed.Value.Where.describe() << reasonInParens(Stayed.Value)
                << Other.Value.Where.describe()
                << spellWithSuffix(Stayed, Migration);
    for (const FixItHint &Fix : appendToExpression(Stayed.E, Migration, Ctx))
      Diag << Fix;
  } else {
    auto Diag = diag(Stayed.E->getBeginLoc(),
                     "'%0' is on %1%2 but '%3' is on %4; move it with '%5' "
                     "as well")
                << Stayed.Spelling << Stayed.Value.Where.describe()
                << reasonInParens(Stayed.Value) << Other.Spelling
                << Other.Value.Where.describe()
                << spellWithSuffix(Stayed, Migration);
    for (const FixItHint &Fix : appendToExpression(Stayed.E, Migration, Ctx))
      Diag << Fix;
  }
  addOriginNotes(*this, Stayed);
  addOriginNotes(*this, Other);
}

} // namespace torchtidy
