//===--- Errors.cpp - Which calls throw LibTorch's errors -----------------===//

#include "Model/Errors.h"
#include "Model/TorchTypes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace torchtidy {

static bool isDeclaredNotToThrow(const FunctionDecl *F) {
  const auto *Type = F->getType()->getAs<FunctionProtoType>();
  return Type && Type->isNothrow();
}

bool mayThrowLibTorchError(const Expr *E) {
  const FunctionDecl *Callee = nullptr;
  if (const auto *Call = dyn_cast<CallExpr>(E))
    Callee = Call->getDirectCallee();
  else if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
    Callee = Construct->getConstructor();
  else
    return false;
  // A call through a pointer: whatever it calls.
  if (!Callee)
    return isa<CallExpr>(E);
  if (isDeclaredNotToThrow(Callee) || isInStandardLibrary(Callee))
    return false;
  // Copying or moving a value (a tensor handle, a device) checks nothing.
  if (const auto *Constructor = dyn_cast<CXXConstructorDecl>(Callee))
    if (Constructor->isTrivial() || Constructor->isCopyOrMoveConstructor())
      return false;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee))
    if (Method->isCopyAssignmentOperator() ||
        Method->isMoveAssignmentOperator())
      return false;
  return true;
}

/// Whether Class is `c10::Error`.
static bool isLibTorchError(const CXXRecordDecl *Class) {
  return Class && Class->getQualifiedNameAsString() == "c10::Error";
}

bool catchesLibTorchErrors(const CXXCatchStmt *Handler) {
  QualType Caught = Handler->getCaughtType();
  if (Caught.isNull()) // catch (...)
    return true;
  const CXXRecordDecl *Class =
      Caught.getNonReferenceType()->getAsCXXRecordDecl();
  if (!Class || !Class->hasDefinition())
    return false;
  Class = Class->getDefinition();
  if (isLibTorchError(Class) ||
      Class->getQualifiedNameAsString() == "std::exception")
    return true;
  // A subclass of c10::Error catches the errors of its kind.
  bool DerivesFromError = false;
  Class->forallBases([&](const CXXRecordDecl *Base) {
    DerivesFromError |= isLibTorchError(Base);
    return true;
  });
  return DerivesFromError;
}

} // namespace torchtidy
