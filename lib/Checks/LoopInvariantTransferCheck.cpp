//===--- LoopInvariantTransferCheck.cpp -
// libtorch-loop-invariant-transfer ===//

#include "Checks/LoopInvariantTransferCheck.h"
#include "Model/TorchApi.h"

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {
namespace {

bool contains(const SourceManager &Sources, SourceRange Outer,
              SourceLocation Loc) {
  return Outer.isValid() && Loc.isValid() &&
         !Sources.isBeforeInTranslationUnit(Loc, Outer.getBegin()) &&
         !Sources.isBeforeInTranslationUnit(Outer.getEnd(), Loc);
}

const Stmt *loopBody(const Stmt *Loop) {
  if (const auto *For = dyn_cast<ForStmt>(Loop))
    return For->getBody();
  if (const auto *RangeFor = dyn_cast<CXXForRangeStmt>(Loop))
    return RangeFor->getBody();
  if (const auto *While = dyn_cast<WhileStmt>(Loop))
    return While->getBody();
  if (const auto *Do = dyn_cast<DoStmt>(Loop))
    return Do->getBody();
  return nullptr;
}

/// The nearest parent that is not a paren or an implicit node.
DynTypedNode semanticParent(ASTContext &Ctx, DynTypedNode Node) {
  while (true) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return DynTypedNode();
    Node = Parents[0];
    const auto *E = Node.get<Expr>();
    if (!E || !(isa<ParenExpr>(E) || isa<ImplicitCastExpr>(E) ||
                isa<MaterializeTemporaryExpr>(E)))
      return Node;
  }
}

/// Whether this use of a variable may change the tensor it holds: assigned,
/// in-place ops (`x.add_(y)`, `x += y`), address taken, or bound to a
/// non-const reference parameter.
bool mayChange(ASTContext &Ctx, const DeclRefExpr *Use) {
  DynTypedNode Parent = semanticParent(Ctx, DynTypedNode::create(*Use));
  if (const auto *Op = Parent.get<CXXOperatorCallExpr>())
    return Op->isAssignmentOp() && Op->getNumArgs() > 0 &&
           Op->getArg(0)->IgnoreParenImpCasts() == Use;
  if (const auto *Binary = Parent.get<BinaryOperator>())
    return Binary->isAssignmentOp() &&
           Binary->getLHS()->IgnoreParenImpCasts() == Use;
  if (const auto *Unary = Parent.get<UnaryOperator>())
    return Unary->getOpcode() == UO_AddrOf;
  if (const auto *Member = Parent.get<MemberExpr>()) {
    const auto *Method = dyn_cast<CXXMethodDecl>(Member->getMemberDecl());
    return Method && (!Method->isConst() || Method->getName().ends_with("_"));
  }
  if (const auto *Call = Parent.get<CallExpr>()) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return true;
    unsigned Offset =
        isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee) ? 1 : 0;
    for (unsigned I = 0; I < Call->getNumArgs(); ++I)
      if (Call->getArg(I)->IgnoreParenImpCasts() == Use && I >= Offset &&
          I - Offset < Callee->getNumParams()) {
        QualType Param = Callee->getParamDecl(I - Offset)->getType();
        return Param->isReferenceType() &&
               !Param.getNonReferenceType().isConstQualified() &&
               !Param->isRValueReferenceType();
      }
  }
  return false;
}

bool changesIn(ASTContext &Ctx, const Stmt *S, const ValueDecl *Var) {
  if (!S)
    return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (Ref->getDecl() == Var && mayChange(Ctx, Ref))
      return true;
  for (const Stmt *Child : S->children())
    if (changesIn(Ctx, Child, Var))
      return true;
  return false;
}

} // namespace

void LoopInvariantTransferCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      callExpr(unless(isExpansionInSystemHeader()),
               hasAncestor(stmt(anyOf(forStmt(), cxxForRangeStmt(), whileStmt(),
                                      doStmt()))
                               .bind("loop")))
          .bind("call"),
      this);
}

void LoopInvariantTransferCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  const auto *Loop = Result.Nodes.getNodeAs<Stmt>("loop");
  if (classifyCall(Call) != TorchCallKind::Migration)
    return;
  TransferTarget Target = transferTarget(Call);
  if (Target != TransferTarget::OffHost && Target != TransferTarget::Unknown)
    return;
  const SourceManager &Sources = *Result.SourceManager;
  const Stmt *Body = loopBody(Loop);
  if (!Body || !contains(Sources, Body->getSourceRange(), Call->getBeginLoc()))
    return; // in the loop's header: runs once
  const auto *Ref =
      dyn_cast_or_null<DeclRefExpr>(ignoreValuePreserving(callObject(Call)));
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->isLocalVarDeclOrParm() ||
      contains(Sources, Loop->getSourceRange(), Var->getLocation()) ||
      changesIn(*Result.Context, Body, Var))
    return;
  diag(Call->getExprLoc(),
       "'%0' copies '%1' to %select{a device|the device}2 in every iteration, "
       "but '%1' does not change in the loop; move it once before the loop")
      << calleeDisplayName(Call) << Var->getName()
      << (Target == TransferTarget::OffHost);
  diag(Var->getLocation(), "'%0' is declared before the loop",
       DiagnosticIDs::Note)
      << Var->getName();
  diag(Loop->getBeginLoc(), "in this loop", DiagnosticIDs::Note);
}

} // namespace torchtidy
