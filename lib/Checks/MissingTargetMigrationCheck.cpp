//===--- MissingTargetMigrationCheck.cpp - libtorch-missing-target-migration
//===//

#include "Checks/MissingTargetMigrationCheck.h"
#include "Checks/FindingWording.h"
#include "Model/SourceText.h"

using namespace clang;

namespace torchtidy {

void MissingTargetMigrationCheck::report(const DeviceFlowResult &Flow,
                                         ASTContext &Ctx) {
  for (const DroppedMigration &Dropped : Flow.DroppedMigrations)
    if (isFirstReportAt(Dropped.Call->getExprLoc()))
      reportDroppedMigration(Dropped, Ctx);
  for (const MixedDeviceSite &Site : Flow.MixedSites) {
    if (!Site.MissingMigration)
      continue;
    if (Site.UnmovedSource) {
      if (isFirstReportAt(Site.UnmovedSource->Loc))
        reportUnmovedSource(Site, Ctx);
    } else if (isFirstReportAt(callBegin(Site.Call))) {
      reportLeftBehind(Site, Ctx);
    }
  }
}

void MissingTargetMigrationCheck::reportUnmovedSource(
    const MixedDeviceSite &Site, ASTContext &Ctx) {
  const Origin &Source = *Site.UnmovedSource;
  const std::string &Migration = *Site.MissingMigration;
  {
    auto Diag =
        diag(Source.Loc,
             "'%0' stays on the CPU while the rest of its batch is moved; "
             "'%1', computed from it, meets '%2' on %3 in '%4'; move it with "
             "'%0%5'")
        << Source.Subject << Site.Stayed.Spelling << Site.Other.Spelling
        << Site.Other.Value.Where.describe() << Site.OpName << Migration;
    for (const FixItHint &Fix : appendToExpression(Source.Read, Migration, Ctx))
      Diag << Fix;
  } // Emitted here, ahead of its notes.
  addOriginNotes(*this, Site.Stayed);
  addOriginNotes(*this, Site.Other);
  addLaterUseNotes(*this, Site);
}

void MissingTargetMigrationCheck::reportDroppedMigration(
    const DroppedMigration &Dropped, ASTContext &Ctx) {
  auto Diag = diag(Dropped.Call->getExprLoc(),
                   "result of '%0%1' is discarded; tensors do not move in "
                   "place, so '%0' stays on %2")
              << Dropped.Object.Spelling << Dropped.Migration
              << Dropped.Object.Value.Where.describe();
  if (!Dropped.Assignable || Dropped.Call->getBeginLoc().isMacroID())
    return;
  std::string Assignment = Dropped.Object.Spelling + " = ";
  if (!Dropped.VoidCast) {
    Diag << FixItHint::CreateInsertion(Dropped.Call->getBeginLoc(), Assignment);
    return;
  }
  // `(void)x.to(d)`, `static_cast<void>(x.to(d))`: the cast goes.
  std::string Call = writtenText(Dropped.Call->getSourceRange(), Ctx);
  if (!Call.empty() && !Dropped.VoidCast->getBeginLoc().isMacroID() &&
      !Dropped.VoidCast->getEndLoc().isMacroID())
    Diag << FixItHint::CreateReplacement(
        CharSourceRange::getTokenRange(Dropped.VoidCast->getSourceRange()),
        Assignment + Call);
}

void MissingTargetMigrationCheck::reportLeftBehind(const MixedDeviceSite &Site,
                                                   ASTContext &Ctx) {
  const Operand &Stayed = Site.Stayed;
  const Operand &Other = Site.Other;
  const std::string &Migration = *Site.MissingMigration;

  if (Other.IsModule && Site.ModuleCalledInHelper) {
    // The caller moved the model; the helper feeds it host tensors. The
    // move belongs inside the helper, at the module call the note shows.
    diag(callBegin(Site.Call),
         "'%0' is on %1 but '%2' calls it with inputs on %3; move them to "
         "the module's device inside '%2'")
        << Other.Spelling << Other.Value.Where.describe() << Site.OpName
        << Stayed.Value.Where.describe();
  } else if (Stayed.IsModule) {
    // The model stayed on the host while its inputs moved; with a helper,
    // the helper runs it on inputs it moves to a device the caller chose.
    std::string Move =
        Migration.empty() ? std::string(".to(device)") : Migration;
    diag(callBegin(Site.Call),
         Site.ModuleCalledInHelper
             ? "'%0' is on %1%2 but '%3' calls it with inputs on %4; move "
               "the module with '%0%5%6' before this call"
             : "'%0' is on %1%2 but its input '%3' is on %4; move the module "
               "with '%0%5%6' before calling it")
        << Stayed.Spelling << Stayed.Value.Where.describe()
        << reasonInParens(Stayed.Value)
        << (Site.ModuleCalledInHelper ? Site.OpName : Other.Spelling)
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
  addLaterUseNotes(*this, Site);
}

} // namespace torchtidy
