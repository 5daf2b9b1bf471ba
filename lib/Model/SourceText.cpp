//===--- SourceText.cpp - How calls and expressions are written -----------===//

#include "Model/SourceText.h"

#include "Model/ModelDetail.h"
#include "Model/Modules.h"
#include "llvm/ADT/STLExtras.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/OperatorKinds.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace torchtidy {
using namespace model_detail;

const Expr *callObject(const CallExpr *Call) {
  const Expr *Object = nullptr;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
    Object = Member->getImplicitObjectArgument();
  else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
    if (isa_and_nonnull<CXXMethodDecl>(Op->getDirectCallee()) &&
        Op->getNumArgs() > 0)
      Object = Op->getArg(0);
  if (!Object)
    return nullptr;
  // See through holder->method(): operator-> of ModuleHolder / shared_ptr.
  while (true) {
    const Expr *Bare = Object->IgnoreParenImpCasts();
    if (const auto *Arrow = dyn_cast<CXXOperatorCallExpr>(Bare);
        Arrow && Arrow->getOperator() == OO_Arrow && Arrow->getNumArgs() > 0) {
      Object = Arrow->getArg(0);
      continue;
    }
    if (const Expr *Handle = dereferencedModuleHandle(Bare)) {
      Object = Handle;
      continue;
    }
    if (const auto *Unary = dyn_cast<UnaryOperator>(Bare);
        Unary && Unary->getOpcode() == UO_Deref) {
      Object = Unary->getSubExpr();
      continue;
    }
    return Bare;
  }
}

const Expr *dereferencedModuleHandle(const Expr *E) {
  const auto *Deref =
      dyn_cast_or_null<CXXOperatorCallExpr>(E ? E->IgnoreParenImpCasts() : E);
  if (!Deref || Deref->getOperator() != OO_Star || Deref->getNumArgs() != 1)
    return nullptr;
  // std::shared_ptr's operator* is its base class's: see through the
  // conversion to it.
  const Expr *Handle = Deref->getArg(0)->IgnoreImpCasts();
  return isModuleType(Handle->getType()) ? Handle : nullptr;
}

bool containsCallWhere(const Stmt *S,
                       llvm::function_ref<bool(const CallExpr *)> Is) {
  if (const auto *Call = dyn_cast_or_null<CallExpr>(S); Call && Is(Call))
    return true;
  return S && llvm::any_of(S->children(), [&](const Stmt *Child) {
           return containsCallWhere(Child, Is);
         });
}

SourceLocation callBegin(const CallExpr *Call) {
  // Stmt::getSourceRange dispatches to the operator call's own range.
  return Call->getSourceRange().getBegin();
}

unsigned firstParameterArgument(const CallExpr *Call) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  return isa<CXXOperatorCallExpr>(Call) && Method && Method->isInstance() ? 1
                                                                          : 0;
}

std::string calleeDisplayName(const CallExpr *Call) {
  const FunctionDecl *FD = calleeOf(Call);
  if (!FD)
    return "call";
  if (FD->getOverloadedOperator() != OO_None) {
    if (FD->getOverloadedOperator() == OO_Call)
      return "operator()";
    return getOperatorSpelling(FD->getOverloadedOperator());
  }
  std::string Name = FD->getNameAsString();
  if (isa<CXXMethodDecl>(FD) && !cast<CXXMethodDecl>(FD)->isStatic())
    return "." + Name + "()";
  // Free functions: as the user qualified them (torch::randn, at::ones).
  const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Callee);
      Ref && Ref->hasQualifier()) {
    std::string Text = writtenText(
        {Ref->getQualifierLoc().getBeginLoc(), Ref->getNameInfo().getEndLoc()},
        FD->getASTContext());
    if (!Text.empty() && Text.find('\n') == std::string::npos)
      return Text;
  }
  return Name;
}

std::string writtenText(SourceRange Range, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &Lang = Ctx.getLangOpts();
  CharSourceRange InFile =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(Range), SM, Lang);
  if (InFile.isValid())
    return Lexer::getSourceText(InFile, SM, Lang).str();
  // Written inside one macro's definition (or one argument): the text there.
  // Both ends must come from the same expansion, or the text between their
  // spellings would be whatever lies between two definitions.
  if (!Range.getBegin().isMacroID() || !Range.getEnd().isMacroID() ||
      SM.getImmediateExpansionRange(Range.getBegin()).getBegin() !=
          SM.getImmediateExpansionRange(Range.getEnd()).getBegin())
    return "";
  SourceLocation Begin = SM.getSpellingLoc(Range.getBegin());
  SourceLocation End = SM.getSpellingLoc(Range.getEnd());
  if (Begin.isInvalid() || End.isInvalid() ||
      SM.getFileID(Begin) != SM.getFileID(End) ||
      SM.isBeforeInTranslationUnit(End, Begin))
    return "";
  return Lexer::getSourceText(CharSourceRange::getTokenRange(Begin, End), SM,
                              Lang)
      .str();
}

const StringLiteral *writtenStringLiteral(const Expr *E) {
  while (true) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
        Construct && Construct->getNumArgs() > 0) {
      E = Construct->getArg(0);
      continue;
    }
    return dyn_cast<StringLiteral>(E);
  }
}

const Expr *ignoreValuePreserving(const Expr *E) {
  while (E) {
    const Expr *Next = E->IgnoreParens();
    if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(Next))
      Next = Cleanups->getSubExpr();
    else if (const auto *Cast = dyn_cast<ImplicitCastExpr>(Next))
      Next = Cast->getSubExpr();
    else if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(Next))
      Next = Temp->getSubExpr();
    else if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(Next))
      Next = Bind->getSubExpr();
    else if (const auto *Constant = dyn_cast<ConstantExpr>(Next))
      Next = Constant->getSubExpr();
    else if (const auto *Functional = dyn_cast<CXXFunctionalCastExpr>(Next);
             Functional &&
             (Functional->getCastKind() == CK_NoOp ||
              Functional->getCastKind() == CK_ConstructorConversion))
      Next = Functional->getSubExpr();
    else if (const auto *Construct = dyn_cast<CXXConstructExpr>(Next);
             Construct && Construct->getNumArgs() >= 1 &&
             Construct->getConstructor()->isCopyOrMoveConstructor())
      Next = Construct->getArg(0);
    else if (const auto *Call = dyn_cast<CallExpr>(Next);
             Call && Call->getNumArgs() == 1 && Call->getDirectCallee() &&
             Call->getDirectCallee()->isInStdNamespace() &&
             (plainName(Call->getDirectCallee()) == "move" ||
              plainName(Call->getDirectCallee()) == "forward"))
      Next = Call->getArg(0);
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

} // namespace torchtidy
