//===--- TensorOps.h - LibTorch calls, 0-dim results, autograd --*- C++ -*-===//
//
// The op facet of the LibTorch model: how a call relates to placement
// (TorchCallKind: factories, migrations, ops, reductions, losses, ...) and
// which of its arguments carry tensors; the 0-dim rule: full reductions,
// losses and scalar factories make 0-dim tensors, and LibTorch lets a 0-dim
// CPU tensor meet tensors on any device; and autograd history: in-place
// writes, the views they write through, and the guards that turn recording
// off.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_MODEL_TENSOROPS_H
#define TORCHTIDY_MODEL_TENSOROPS_H

#include "clang/AST/Expr.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace torchtidy {

/// How a LibTorch call relates to placement.
enum class TorchCallKind {
  Other,         ///< Not a LibTorch call the model knows.
  Factory,       ///< Creates a tensor: torch::zeros, randn, arange, ...
  LikeFactory,   ///< *_like: follows its tensor argument's device.
  FromBlob,      ///< Wraps caller memory: host unless options say so.
  TensorLiteral, ///< torch::tensor(...): host unless options say so.
  Migration,     ///< tensor.to(...), .cuda(), .cpu(): returns a moved copy.
  Detach,        ///< .detach(): same device, no autograd history.
  ReadScalar,    ///< .item(): a host number, not a tensor.
  CrossDevice,   ///< copy_, index_put_, ...: operands may legitimately differ.
  DeviceQuery,   ///< .device(), .options(): the tensor's device as a value.
  Backward,      ///< .backward(), torch::autograd::backward/grad.
  Reduction,     ///< sum(), mean(), ... without dimensions: 0-dim result.
  LossFunction,  ///< torch::nn::functional::*_loss, cross_entropy: 0-dim.
  Op,            ///< Any other LibTorch op on tensors.
  TensorOptionsSet,   ///< TensorOptions::device(d), torch::device(d).
  TensorOptionsKeep,  ///< TensorOptions::dtype(...), requires_grad(...), ...
  RequiresGrad,       ///< tensor.requires_grad_(), options.requires_grad(true).
  ModuleMigration,    ///< module->to(d), module.to(d), ->cuda(), ->cpu().
  ModuleForward,      ///< module->forward(x), module(x).
  ModuleConstruction, ///< std::make_shared<Net>(), torch::nn::Linear(...).
  InPlaceAccumulate,  ///< tensor.add_(x), +=: grows the receiver in place.
  ContainerAppend,    ///< tensors.push_back(x), emplace_back(x), insert(p, x).
  ContainerClear,     ///< tensors.clear(): it holds nothing now.
  ContainerKeep,      ///< reserve, pop_back, erase, size, ...: the
                      ///< elements left are where they were.
  ContainerIterator,  ///< begin(), end(), data(): what code may read or
                      ///< write the elements through.
  TupleElement,       ///< std::get<N>(t) on a tuple of tensors.
  TupleConstruction,  ///< std::make_pair / make_tuple / tie of tensors.
};

/// Classifies a call by its callee (and, for methods, the object's type).
TorchCallKind classifyCall(const clang::CallExpr *Call);

/// The arguments of a call that carry tensors, in source order (the object of
/// a method call first). TensorList arguments (`torch::cat({a, b})`) are
/// flattened into their element expressions; a container of tensors passed
/// as one (`torch::stack(states)`) is itself an operand; an nn options
/// argument built in the call (`CrossEntropyFuncOptions().weight(w)`) gives
/// the tensors its setters were given.
llvm::SmallVector<const clang::Expr *, 4>
tensorOperands(const clang::CallExpr *Call);

/// For a loss (torch::nn::functional::cross_entropy, a loss module call):
/// the prediction, its first tensor input. Its other inputs are targets,
/// which belong wherever the prediction is. Null for any other call.
const clang::Expr *lossPrediction(const clang::CallExpr *Call);

/// A LibTorch call that works in place and hands back the tensor it worked
/// on: the methods and functions whose names end in `_` (`copy_`, `zero_`,
/// `torch::nn::init::normal_`).
bool isInPlaceCall(const clang::CallExpr *Call);

/// A write of one tensor's values into (part of) another, in place:
/// `dst.copy_(v)`, `dst.index_put_(i, v)`, `dst.index_copy_(d, i, v)`,
/// `dst.masked_scatter_(m, v)`, and assignment to an element or view,
/// `dst[i] = v` (a tensor view, or an element of a std::vector of tensors).
/// Outside no-grad code the destination takes on v's autograd history.
struct InPlaceWrite {
  const clang::Expr *Target = nullptr; ///< `dst`, `dst[i]` as written.
  const clang::Expr *Value = nullptr;  ///< `v`.
};
std::optional<InPlaceWrite> inPlaceWriteOf(const clang::CallExpr *Call);

/// The index of an element of a container of tensors, `v[i]` or `v.at(i)`:
/// the slot that an assignment to it replaces, freeing what it held. Null
/// for a tensor's element or view, which an assignment writes into in place.
const clang::Expr *containerSlotIndex(const clang::Expr *E);

/// For a ContainerAppend call, the argument that the element is built from
/// first: 1 after the position of `insert(pos, x)` and `emplace(pos, ...)`,
/// else 0.
unsigned firstAppendedArgument(const clang::CallExpr *Call);

/// The container of tensors E is an element of, `v` for `v[i]`,
/// `v.at(i)`, `v.front()`, `v.back()`; null for anything else (a tensor's
/// element or view, an element of an element).
const clang::Expr *containerOfElement(const clang::Expr *E);

/// The container of tensors whose iterator E is (`v.begin()`, `v.end()`,
/// `v.data()`), or null.
const clang::Expr *iteratedContainer(const clang::Expr *E);

/// A standard algorithm that copies elements of one container of tensors
/// into another: `std::sample(buffer.begin(), buffer.end(),
/// std::back_inserter(batch), n, rng)`, `std::copy(a.begin(), a.end(),
/// b.begin())`.
struct StdCopy {
  const clang::Expr *Source = nullptr; ///< `buffer`.
  const clang::Expr *Out = nullptr;    ///< `batch`.
};
std::optional<StdCopy> stdCopyOf(const clang::CallExpr *Call);

/// A standard function that only reads through the iterators it is given
/// (`std::distance`, `std::find_if`, `std::accumulate`).
bool onlyReadsIterators(const clang::CallExpr *Call);

/// What a list argument is under the conversions that pass it on
/// (`torch::cat({a, b})`: the braced list; `torch::stack(states)`: the
/// container), or E itself.
const clang::Expr *underListConversions(const clang::Expr *E);

/// The tensor, or std::vector of tensors, that an element or view
/// expression is part of: `buf` for `buf[i]`, `buf.index({i})`,
/// `buf.select(0, i)`, `buf.narrow(0, i, 1)`, `buf.slice(0, a, b)`,
/// `v[i]`, `v.at(i)`, `v.front()` and `v.back()`, through any nesting. E
/// itself when it is none.
const clang::Expr *viewedStorage(const clang::Expr *E);

/// The tensor, or std::vector of tensors, that E reads a part of with host
/// indices only (`out[i]`, `out.index({0, i, Slice(0, 3)})`,
/// `out.select(1, c)`, `v[i]`, through any nesting), or E itself when it
/// is no part. Such a part is a view or an element: taking it queues no
/// device work. Null where some index is a tensor (`x[mask]`,
/// `x.index({idx})`): a gather, which the device computes.
const clang::Expr *hostIndexedStorage(const clang::Expr *E);

/// Whether `torch::tensor(x)` makes a 0-dim tensor: a single arithmetic value,
/// not a braced list.
bool isScalarTensorLiteral(const clang::CallExpr *Call);

/// Whether the expression creates a 0-dim tensor from a scalar
/// (`torch::zeros({})`, `torch::tensor(0.0)`, `torch::scalar_tensor(x)`).
bool isScalarFactoryCall(const clang::Expr *E);

/// The rank of a factory's result where its arguments spell it:
/// `torch::zeros({n, m})` 2, `torch::arange(n)` and `torch::randperm(n)` 1,
/// `torch::tensor({1, 2})` 1, a scalar literal or an empty size list 0,
/// `torch::from_blob(p, {h, w})` 2. None otherwise.
std::optional<unsigned> factoryRank(const clang::CallExpr *Call);

/// The rank of an op's result from its tensor operands' ranks (in
/// tensorOperands order, none where unknown): elementwise arithmetic,
/// activations, conversions and reordering views keep the largest;
/// `view`/`reshape`/`expand` with a size list have its length; `unsqueeze`
/// adds one, `flatten()` gives 1. None for every other op: a rank that is
/// not sure is never given.
std::optional<unsigned>
opResultRank(const clang::CallExpr *Call,
             llvm::ArrayRef<std::optional<unsigned>> OperandRanks);

/// How many dimensions a part of a tensor (viewedStorage) has fewer than
/// the tensor: 1 for `x[i]` and `x.select(d, i)` with an integer index, 0
/// for `narrow` and `slice`. None where the indices do not say (`index`
/// with a list, a tensor index).
std::optional<unsigned> dimensionsDroppedByPart(const clang::CallExpr *Call);

/// `x[mask]`, `x[indices]`: indexing with a tensor, which keeps at least one
/// dimension (gathered elements), so the part is never a 0-dim scalar.
bool isIndexedWithTensor(const clang::CallExpr *Call);

/// Whether a LibTorch call gives the same result each time it is given the
/// same object and arguments, and changes none of them: ops, views, dtype
/// conversions and copies to the host, factories (from_blob reads its
/// memory again), TensorOptions setters, a tensor's queries. Not in-place
/// ops, random draws and `empty` (whose contents differ from call to call),
/// copies to a device, module calls, I/O or backward().
bool isRepeatableLibTorchCall(const clang::CallExpr *Call);

/// The host memory a `torch::from_blob(data, sizes, ...)` wraps, as named
/// by its data argument: `buf` for `buf.data()`, `&buf[0]`, `buf.data_ptr()`
/// or `buf` itself. Null when Call is not from_blob or the memory is
/// computed.
const clang::Expr *wrappedHostMemory(const clang::CallExpr *Call);

/// What a statement sets autograd recording to.
enum class GradModeSetting {
  None,    ///< not a grad-mode setting
  Off,     ///< NoGradGuard, InferenceMode, AutoGradMode(false)
  On,      ///< AutoGradMode(true), InferenceMode(false): back on
  Unknown, ///< AutoGradMode(flag): on or off, depending on the flag's value
};
/// The setting of a local RAII guard, which holds until its block ends.
GradModeSetting gradModeSetByGuard(const clang::VarDecl &Var,
                                   const clang::ASTContext &Ctx);
/// The setting of a `GradMode::set_enabled(...)` call, which holds until
/// another sets it again: the mode is the thread's, not the block's.
GradModeSetting gradModeSetByCall(const clang::CallExpr &Call,
                                  const clang::ASTContext &Ctx);

} // namespace torchtidy

#endif // TORCHTIDY_MODEL_TENSOROPS_H
