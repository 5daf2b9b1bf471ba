//===--- FindingWording.cpp - Shared words, notes and fix-its -------------===//

#include "Checks/FindingWording.h"
#include "Model/TorchApi.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace torchtidy {

/// A file as the code names it: a string literal as it is, a variable
/// quoted like every other name in a finding.
static std::string fileAsWritten(llvm::StringRef File) {
  return File.starts_with("\"") ? File.str() : "'" + File.str() + "'";
}

std::string reasonFor(const AbstractValue &Value) {
  if (Value.Origins.empty())
    return "";
  const Origin &O = Value.Origins.front();
  switch (O.K) {
  case Origin::Kind::DataLoaderBatch:
    return "it comes from the data-loader batch";
  case Origin::Kind::Factory:
    return Value.Where.isDefinitelyHost()
               ? "created by '" + O.Detail + "' without a device"
               : "created by '" + O.Detail + "'";
  case Origin::Kind::FromBlob:
    return "'" + O.Detail + "' wraps host memory";
  case Origin::Kind::TensorLiteral:
    return "built from host values by '" + O.Detail + "'";
  case Origin::Kind::Migration:
    return "moved with '" + O.Detail + "'";
  case Origin::Kind::HostCopy:
    return "copied back with '" + O.Detail + "'";
  case Origin::Kind::ModuleConstruction:
    return "it is created there and never moved";
  case Origin::Kind::ModuleMigration:
    return "moved with '" + O.Detail + "'";
  case Origin::Kind::ModuleOutput:
    return "output of '" + O.Subject + "'";
  case Origin::Kind::DroppedMigration:
    return "its '" + O.Detail + "' result was discarded";
  case Origin::Kind::HelperResult:
    return "returned by '" + O.Subject + "'";
  case Origin::Kind::HelperEffect:
    return "placed by '" + O.Detail + "'";
  case Origin::Kind::ModuleCallInHelper:
    return "an input of '" + O.Detail + "'";
  case Origin::Kind::CombinedInHelper:
    return "combined with it in '" + O.Detail + "'";
  case Origin::Kind::CheckpointLoad:
    return "restored by 'torch::load' from " + fileAsWritten(O.Detail);
  case Origin::Kind::ModuleParameters:
    return "its class '" + O.Subject + "' holds parameters";
  case Origin::Kind::PassedByCaller:
    return "passed by '" + O.Detail + "'";
  case Origin::Kind::HeldByOptions:
    return "it holds '" + O.Subject + "' as its " + O.Detail;
  }
  return "";
}

std::string reasonInParens(const AbstractValue &Value) {
  std::string Reason = reasonFor(Value);
  return Reason.empty() ? "" : " (" + Reason + ")";
}

static std::string noteFor(const Origin &O) {
  switch (O.K) {
  case Origin::Kind::DataLoaderBatch:
    return "'" + O.Subject + "' comes from the data-loader batch, on the CPU";
  case Origin::Kind::Factory:
    return "created here by '" + O.Detail + "' on " + O.DeviceWords;
  case Origin::Kind::FromBlob:
    return "created here by '" + O.Detail + "' over host memory";
  case Origin::Kind::TensorLiteral:
    return "created here by '" + O.Detail + "' from host values";
  case Origin::Kind::Migration:
  case Origin::Kind::ModuleMigration:
    return "'" + O.Subject + "' is moved to " + O.DeviceWords + " here with '" +
           O.Detail + "'";
  case Origin::Kind::HostCopy:
    return "'" + O.Subject + "' is copied to the CPU here with '" + O.Detail +
           "'";
  case Origin::Kind::ModuleConstruction:
    return "the module is created here, on the CPU";
  case Origin::Kind::ModuleOutput:
    return "output of '" + O.Subject + "', on " + O.DeviceWords;
  case Origin::Kind::DroppedMigration:
    return "the result of '" + O.Subject + O.Detail + "' is discarded here";
  case Origin::Kind::HelperResult:
    return "'" + O.Subject + "' returns it on " + O.DeviceWords;
  case Origin::Kind::HelperEffect:
    return "'" + O.Detail + "' leaves '" + O.Subject + "' on " + O.DeviceWords;
  case Origin::Kind::ModuleCallInHelper:
    return "'" + O.Detail + "' is called here with '" + O.Subject + "' on " +
           O.DeviceWords;
  case Origin::Kind::CombinedInHelper:
    return "the helper combines " + O.Subject + " here in '" + O.Detail +
           "', which needs them on one device";
  case Origin::Kind::CheckpointLoad:
    return "'torch::load' restores '" + O.Subject + "' here from " +
           fileAsWritten(O.Detail) + ", onto " + O.DeviceWords;
  case Origin::Kind::ModuleParameters:
    return "'" + O.Subject +
           "' holds parameters: its constructor, defined here, registers them";
  case Origin::Kind::PassedByCaller:
    return "'" + O.Subject + "' is on " + O.DeviceWords + " here: passed by '" +
           O.Detail + "'";
  case Origin::Kind::HeldByOptions:
    return "'" + O.Subject + "' is given as the " + O.Detail + " here, on " +
           O.DeviceWords;
  }
  return "";
}

void addOriginNotes(tidy::ClangTidyCheck &Check, const Operand &O) {
  for (const Origin &Step : O.Value.Origins) {
    std::string Note = noteFor(Step);
    if (!Note.empty() && Step.Loc.isValid())
      Check.diag(Step.Loc, Note, DiagnosticIDs::Note);
  }
}

void addLaterUseNotes(tidy::ClangTidyCheck &Check,
                      const MixedDeviceSite &Site) {
  for (const CallExpr *Use : Site.LaterUses)
    Check.diag(Use->getBeginLoc(),
               "'%0', or a value computed from it, also meets another "
               "device here; the same fix covers it",
               DiagnosticIDs::Note)
        << Site.Stayed.Spelling;
}

void addThrowPathNotes(tidy::ClangTidyCheck &Check,
                       const MixedDeviceSite &Site) {
  if (!Site.OnThrowPath)
    return;
  const Expr *Thrower = Site.OnThrowPath->Thrower;
  std::string Name;
  if (const auto *Call = dyn_cast<CallExpr>(Thrower))
    Name = calleeDisplayName(Call);
  else
    Name = Thrower->getType().getAsString();
  Check.diag(Thrower->getBeginLoc(),
             "on the path where '%0' throws here (a LibTorch error)",
             DiagnosticIDs::Note)
      << Name;
  Check.diag(Site.OnThrowPath->Handler->getCatchLoc(),
             "the handler catches it and the code after it goes on with "
             "'%0' on %1 while '%2' is on %3; move both in the handler, or "
             "pick the device before moving anything",
             DiagnosticIDs::Note)
      << Site.Stayed.Spelling << Site.Stayed.Value.Where.describe()
      << Site.Other.Spelling << Site.Other.Value.Where.describe();
}

/// Whether `E.method()` parses as intended without parentheses around E.
static bool isPostfixExpression(const Expr *E) {
  // Through the copy that passing by value makes, too.
  E = ignoreValuePreserving(E)->IgnoreImplicit();
  if (isa<DeclRefExpr, MemberExpr, ParenExpr, ArraySubscriptExpr, CXXThisExpr>(
          E))
    return true;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    return Op->getOperator() == OO_Call || Op->getOperator() == OO_Subscript ||
           Op->getOperator() == OO_Arrow;
  return isa<CallExpr>(E);
}

llvm::SmallVector<FixItHint, 2> appendToExpression(const Expr *E,
                                                   llvm::StringRef Suffix,
                                                   const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Begin = E->getBeginLoc();
  SourceLocation End = E->getEndLoc();
  if (Begin.isInvalid() || End.isInvalid() || Begin.isMacroID() ||
      End.isMacroID())
    return {};
  SourceLocation AfterEnd =
      Lexer::getLocForEndOfToken(End, 0, SM, Ctx.getLangOpts());
  if (AfterEnd.isInvalid())
    return {};
  llvm::SmallVector<FixItHint, 2> Fixes;
  if (isPostfixExpression(E)) {
    Fixes.push_back(FixItHint::CreateInsertion(AfterEnd, Suffix));
  } else {
    Fixes.push_back(FixItHint::CreateInsertion(Begin, "("));
    Fixes.push_back(FixItHint::CreateInsertion(AfterEnd, (")" + Suffix).str()));
  }
  return Fixes;
}

std::string spellWithSuffix(const Operand &O, llvm::StringRef Suffix) {
  if (isPostfixExpression(O.E))
    return O.Spelling + Suffix.str();
  return "(" + O.Spelling + ")" + Suffix.str();
}

llvm::StringRef moduleAccessor(const Expr *Module) {
  QualType T = Module->getType().getNonReferenceType().getCanonicalType();
  if (T->isPointerType())
    return "->";
  const CXXRecordDecl *Class = moduleClassOf(T);
  // A module object (Net net;) is used with '.'; holders and shared_ptr with
  // '->'.
  return Class && T->getAsCXXRecordDecl() == Class ? "." : "->";
}

} // namespace torchtidy
