//===--- ExceptionPaths.cpp - Where a function's LibTorch errors go -------===//

#include "Analysis/ExceptionPaths.h"
#include "Model/Errors.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace torchtidy {

ExceptionPaths::ExceptionPaths(const FunctionDecl *Function) {
  if (Function && Function->getBody())
    collect(Function->getBody(), nullptr);
}

void ExceptionPaths::collect(const Stmt *S, const CXXCatchStmt *Handler) {
  if (!S)
    return;
  // A lambda's body runs when it is called, not where it is defined.
  if (isa<LambdaExpr>(S))
    return;
  if (const auto *Try = dyn_cast<CXXTryStmt>(S)) {
    const CXXCatchStmt *Inner = Handler;
    for (unsigned I = 0; I < Try->getNumHandlers(); ++I)
      if (catchesLibTorchErrors(Try->getHandler(I))) {
        Inner = Try->getHandler(I);
        break;
      }
    collect(Try->getTryBlock(), Inner);
    // What a handler throws goes to the enclosing `try` statement.
    for (unsigned I = 0; I < Try->getNumHandlers(); ++I)
      collect(Try->getHandler(I)->getHandlerBlock(), Handler);
    return;
  }
  if (const auto *E = dyn_cast<Expr>(S);
      E && Handler && mayThrowLibTorchError(E))
    Handlers[E] = Handler;
  for (const Stmt *Child : S->children())
    collect(Child, Handler);
}

} // namespace torchtidy
