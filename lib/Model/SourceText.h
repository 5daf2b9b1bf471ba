//===--- SourceText.h - How calls and expressions are written ---*- C++ -*-===//
//
// The source-text facet of the LibTorch model: how calls and expressions are
// written, apart from what they mean. The object of a member call (through
// holder-> and *), where the callee's parameters start among the arguments,
// a callee's name as users write it, the text of a source range, and the
// parentheses, casts, temporaries and moves that leave a value as it is. The
// other facets look through expressions with these; findings quote code.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_MODEL_SOURCETEXT_H
#define TORCHTIDY_MODEL_SOURCETEXT_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <string>

namespace torchtidy {

/// The object a member call is made on, or null for free functions. Sees
/// through `holder->` (operator-> of ModuleHolder and shared_ptr) and `*`.
const clang::Expr *callObject(const clang::CallExpr *Call);

/// `*model` on a module handle (a ModuleHolder or a std::shared_ptr to a
/// module): the handle, which is the same module. Null for anything else.
const clang::Expr *dereferencedModuleHandle(const clang::Expr *E);

/// Whether S, or anything in it, is a call that Is accepts (`does this loop
/// call backward()`, `does this initialiser register a module`).
bool containsCallWhere(const clang::Stmt *S,
                       llvm::function_ref<bool(const clang::CallExpr *)> Is);

/// Where a call starts as written: for an operator call (`criterion(x, y)`)
/// its first operand. Through a `CallExpr *`, LLVM 22's getBeginLoc gives
/// the callee's location there, the `(`; LLVM 19's, the operand.
clang::SourceLocation callBegin(const clang::CallExpr *Call);

/// The index of the call argument bound to the callee's first parameter: 1
/// in a member operator call (`closure(x)`: argument 0 is the object), else
/// 0.
unsigned firstParameterArgument(const clang::CallExpr *Call);

/// A short name for a LibTorch callee as users write it ("torch::randn",
/// "+", "forward").
std::string calleeDisplayName(const clang::CallExpr *Call);

/// The source text of a range as written: in the file, or, for code that
/// comes from one macro definition or argument, there. Empty when the range
/// is split between several (a macro body around a macro argument).
std::string writtenText(clang::SourceRange Range, const clang::ASTContext &Ctx);

/// The string literal E is written as, under the conversions that pass it
/// on (the `std::string` a `"cuda:1"` argument becomes); null otherwise.
const clang::StringLiteral *writtenStringLiteral(const clang::Expr *E);

/// Strips what does not change the value: parens, implicit casts, temporaries,
/// copies and moves of the same type, std::move.
const clang::Expr *ignoreValuePreserving(const clang::Expr *E);

} // namespace torchtidy

#endif // TORCHTIDY_MODEL_SOURCETEXT_H
