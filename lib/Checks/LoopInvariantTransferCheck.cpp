//===--- LoopInvariantTransferCheck.cpp -
// libtorch-loop-invariant-transfer ===//

#include "Checks/LoopInvariantTransferCheck.h"
#include "Analysis/FunctionFacts.h"
#include "Model/TorchApi.h"

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {
namespace {

bool isLoop(const Stmt *S) {
  return isa<ForStmt, CXXForRangeStmt, WhileStmt, DoStmt>(S);
}

const Stmt *loopBody(const Stmt *Loop) {
  if (const auto *For = dyn_cast<ForStmt>(Loop))
    return For->getBody();
  if (const auto *RangeFor = dyn_cast<CXXForRangeStmt>(Loop))
    return RangeFor->getBody();
  if (const auto *While = dyn_cast<WhileStmt>(Loop))
    return While->getBody();
  return cast<DoStmt>(Loop)->getBody();
}

/// The calls in a loop body that belong to this loop: nested loops are
/// matched on their own.
void collectCalls(const Stmt *S, llvm::SmallVectorImpl<const CallExpr *> &Out) {
  if (!S || isLoop(S))
    return;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    Out.push_back(Call);
  for (const Stmt *Child : S->children())
    collectCalls(Child, Out);
}

bool refersTo(const Expr *E, const ValueDecl *Var) {
  const auto *Ref =
      E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
  return Ref && Ref->getDecl() == Var;
}

/// Whether S may change the tensor or buffer Var holds: assigned (`x = ...`,
/// `x += ...`), an in-place op (`x.add_(y)`), a non-const method
/// (`buf.data()`, `buf[i]`), its address taken, or bound to a non-const
/// reference parameter; anywhere but under Ignored. Read top-down, so no
/// parent map is needed.
bool changesIn(const Stmt *S, const ValueDecl *Var,
               const Stmt *Ignored = nullptr) {
  if (!S || S == Ignored)
    return false;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
      Op && Op->isAssignmentOp() && Op->getNumArgs() > 0 &&
      refersTo(Op->getArg(0), Var))
    return true;
  if (const auto *Binary = dyn_cast<BinaryOperator>(S);
      Binary && Binary->isAssignmentOp() && refersTo(Binary->getLHS(), Var))
    return true;
  // `buf[i] = v`, `buf.at(i)`: a non-const operator of the object.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
      Op && Op->getNumArgs() > 0 && refersTo(Op->getArg(0), Var))
    if (const auto *Method =
            dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
        Method && !Method->isConst())
      return true;
  if (const auto *Unary = dyn_cast<UnaryOperator>(S);
      Unary && Unary->getOpcode() == UO_AddrOf &&
      refersTo(Unary->getSubExpr(), Var))
    return true;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(S);
      Member && refersTo(Member->getImplicitObjectArgument(), Var)) {
    const CXXMethodDecl *Method = Member->getMethodDecl();
    if (!Method || !Method->isConst() || Method->getName().ends_with("_"))
      return true;
  }
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    unsigned Offset =
        isa<CXXOperatorCallExpr>(Call) && isa_and_nonnull<CXXMethodDecl>(Callee)
            ? 1
            : 0;
    for (unsigned I = Offset; I < Call->getNumArgs(); ++I) {
      if (!refersTo(Call->getArg(I), Var))
        continue;
      if (!Callee || I - Offset >= Callee->getNumParams())
        return true; // unknown callee or variadic: assume the worst
      QualType Param = Callee->getParamDecl(I - Offset)->getType();
      if (Param->isLValueReferenceType() &&
          !Param.getNonReferenceType().isConstQualified())
        return true;
    }
  }
  for (const Stmt *Child : S->children())
    if (changesIn(Child, Var, Ignored))
      return true;
  return false;
}

/// The from_blob call a transferred tensor is re-wrapped by in each
/// iteration: the object itself (`torch::from_blob(buf.data(), n).to(d)`),
/// or a variable of the loop initialised by it and not changed since.
const CallExpr *rewrappingCall(const Expr *Object, const Stmt *Body,
                               const SourceManager &SM) {
  const Expr *Value = ignoreValuePreserving(Object);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Value)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Var || !Var->getInit() ||
        !rangeContains(SM, Body->getSourceRange(), Var->getLocation()) ||
        changesIn(Body, Var))
      return nullptr;
    Value = ignoreValuePreserving(Var->getInit());
  }
  const auto *Call = dyn_cast<CallExpr>(Value);
  return Call && wrappedHostMemory(Call) ? Call : nullptr;
}

} // namespace

void LoopInvariantTransferCheck::registerMatchers(MatchFinder *Finder) {
  // Anchored on loops, whose bodies are walked here: no parent map, which
  // clang-tidy would build over all of LibTorch.
  Finder->addMatcher(
      stmt(unless(isExpansionInSystemHeader()),
           anyOf(forStmt(), cxxForRangeStmt(), whileStmt(), doStmt()))
          .bind("loop"),
      this);
}

void LoopInvariantTransferCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Loop = Result.Nodes.getNodeAs<Stmt>("loop");
  const Stmt *Body = loopBody(Loop);
  llvm::SmallVector<const CallExpr *, 16> Calls;
  collectCalls(Body, Calls);
  for (const CallExpr *Call : Calls) {
    if (classifyCall(Call) != TorchCallKind::Migration)
      continue;
    TransferTarget Target = transferTarget(Call);
    if (Target != TransferTarget::OffHost && Target != TransferTarget::Unknown)
      continue;
    const Expr *Object = callObject(Call);
    if (!Object)
      continue;
    // A tensor re-wrapped from the same host buffer in each iteration is
    // that buffer: invariant while the buffer is.
    const CallExpr *Rewrapping =
        rewrappingCall(Object, Body, *Result.SourceManager);
    const Expr *Source = Rewrapping ? wrappedHostMemory(Rewrapping)
                                    : ignoreValuePreserving(Object);
    const auto *Ref = dyn_cast_or_null<DeclRefExpr>(Source);
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!Var || !Var->isLocalVarDeclOrParm() ||
        rangeContains(*Result.SourceManager, Loop->getSourceRange(),
                      Var->getLocation()) ||
        changesIn(Body, Var, Rewrapping))
      continue;
    diag(Call->getExprLoc(),
         "'%0' copies '%1' to %select{a device|the device}2 in every "
         "iteration, but '%1' does not change in the loop; move it once "
         "before the loop")
        << calleeDisplayName(Call) << Var->getName()
        << (Target == TransferTarget::OffHost);
    diag(Var->getLocation(), "'%0' is declared before the loop",
         DiagnosticIDs::Note)
        << Var->getName();
    if (Rewrapping)
      diag(Rewrapping->getExprLoc(),
           "'torch::from_blob' wraps '%0' again here in every iteration",
           DiagnosticIDs::Note)
          << Var->getName();
    diag(Loop->getBeginLoc(), "in this loop", DiagnosticIDs::Note);
  }
}

} // namespace torchtidy
