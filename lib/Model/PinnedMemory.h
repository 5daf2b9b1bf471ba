//===--- PinnedMemory.h - Pinned memory and non_blocking copies -*- C++ -*-===//
//
// The factory-options facet of the LibTorch model: what a tensor-creating
// call's TensorOptions (or pin_memory argument) say about pinned host memory,
// pin_memory() itself, the non_blocking flag of .to() and copy_(), and which
// ops always allocate a new tensor. A non_blocking copy from pageable host
// memory is as synchronous as one without the flag; telling the two apart
// takes all of these.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_MODEL_PINNEDMEMORY_H
#define TORCHTIDY_MODEL_PINNEDMEMORY_H

#include "clang/AST/Expr.h"
#include <optional>

namespace torchtidy {

/// The argument bound to the callee's `non_blocking` parameter, found by the
/// parameter's name so that every overload of `.to()` (and `copy_()`) is
/// covered wherever the flag sits. Null when the callee has no such
/// parameter; a CXXDefaultArgExpr when the call leaves the default (false).
const clang::Expr *nonBlockingArgument(const clang::CallExpr *Call);

/// Whether the call asks for an asynchronous copy: its non_blocking argument
/// is written as `true`.
bool requestsNonBlocking(const clang::CallExpr *Call);

/// `x.pin_memory()` / `at::_pin_memory(x)`: the tensor's data in pinned
/// (page-locked) host memory, the only host memory that a non_blocking copy
/// to a device can overlap with.
bool isPinMemoryCall(const clang::CallExpr *Call);

/// What a tensor-creating call (factory, from_blob, torch::tensor) says about
/// pinned host memory: true when its TensorOptions set `.pinned_memory(true)`
/// (or its `pin_memory` argument is `true`); false when every option it gets
/// is visible and none pins, which leaves LibTorch's default, pageable
/// memory; std::nullopt when the options come from where the model cannot see
/// (a parameter, a variable that may change, a call).
std::optional<bool> requestsPinnedMemory(const clang::CallExpr *Factory);

/// An op that always returns a new tensor, never one of its operands or a
/// view of one: arithmetic and comparison operators, clone(), cat(),
/// matmul(). Used where a view of a pinned tensor would still be pinned.
bool allocatesNewTensor(const clang::CallExpr *Call);

} // namespace torchtidy

#endif // TORCHTIDY_MODEL_PINNEDMEMORY_H
