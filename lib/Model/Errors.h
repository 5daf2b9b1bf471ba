//===--- Errors.h - Which calls throw LibTorch's errors ---------*- C++ -*-===//
//
// The error facet of the LibTorch model. LibTorch reports every failure,
// a device that is not there (`model->to(torch::kCUDA)` without a GPU) as
// much as a shape mismatch, by throwing `c10::Error` or one of its
// subclasses (`c10::OutOfMemoryError`, `c10::IndexError`), which derive
// from `std::exception`. A program that falls back to the CPU catches one of
// those around its moves; what it moved before the throw stays moved.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_MODEL_ERRORS_H
#define TORCHTIDY_MODEL_ERRORS_H

#include "clang/AST/Expr.h"
#include "clang/AST/StmtCXX.h"

namespace torchtidy {

/// Whether evaluating E itself (not its operands, which are evaluated
/// before it) may throw a LibTorch error: a call or construction of
/// LibTorch's, or of the user's code (which may call LibTorch), that is not
/// declared not to throw. The standard library's calls throw no `c10::Error`
/// of their own (a callback one of them runs is not followed).
bool mayThrowLibTorchError(const clang::Expr *E);

/// Whether Handler catches what LibTorch throws: `catch (...)`, or a handler
/// of `std::exception`, `c10::Error` or a subclass of `c10::Error` (which
/// catches the errors of its kind). A handler of an unrelated type
/// (`std::runtime_error`, the user's own) does not.
bool catchesLibTorchErrors(const clang::CXXCatchStmt *Handler);

} // namespace torchtidy

#endif // TORCHTIDY_MODEL_ERRORS_H
