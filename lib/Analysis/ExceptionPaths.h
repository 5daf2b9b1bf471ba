//===--- ExceptionPaths.h - Where a function's LibTorch errors go -*- C++
//-*-===//
//
// The device flow follows the paths on which nothing throws: Clang's CFG
// has no edge from a call in a `try` block to the handlers (it has one
// where asked, but then every call ends a block, in every function). A
// program that falls back to the CPU takes another path: a move throws (no
// usable GPU), a handler runs, and the code after the `try` statement goes
// on with whatever was moved before the throw. This says, for each call in
// a `try` block that may throw a LibTorch error (Model/Errors.h), which
// handler of the function catches it; the device flow starts a path there,
// from the state before that call (DeviceFlow.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_ANALYSIS_EXCEPTIONPATHS_H
#define TORCHTIDY_ANALYSIS_EXCEPTIONPATHS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"

namespace torchtidy {

/// A path on which a LibTorch error is thrown and caught in the function.
struct ThrowPath {
  /// The call that throws.
  const clang::Expr *Thrower = nullptr;
  /// The handler that catches it, where the path goes on.
  const clang::CXXCatchStmt *Handler = nullptr;
};

class ExceptionPaths {
public:
  /// Nothing is collected for a function without a `try` statement.
  explicit ExceptionPaths(const clang::FunctionDecl *Function);

  /// The handler of this function that catches the LibTorch error E may
  /// throw: the first handler that catches LibTorch's errors of the
  /// innermost `try` statement whose block evaluates E and that has one.
  /// Null for an expression that throws none, that no handler here catches,
  /// or that a lambda defined here evaluates (when it is called, elsewhere).
  const clang::CXXCatchStmt *handlerFor(const clang::Expr *E) const {
    return Handlers.lookup(E);
  }

  bool empty() const { return Handlers.empty(); }

private:
  void collect(const clang::Stmt *S, const clang::CXXCatchStmt *Handler);

  llvm::DenseMap<const clang::Expr *, const clang::CXXCatchStmt *> Handlers;
};

} // namespace torchtidy

#endif // TORCHTIDY_ANALYSIS_EXCEPTIONPATHS_H
