//===--- TorchTypes.h - Which LibTorch types a value has --------*- C++ -*-===//
//
// The type facet of the LibTorch model: which types are tensors, containers
// and tuples of tensors, devices and TensorOptions, and which declarations and
// #include names are LibTorch's (or the standard library's) at all. The other
// facets build on these, so that nothing else compares type names.
//
// Types are always compared through their canonical type, so `torch::Tensor`,
// `at::Tensor`, `const auto &` and user aliases are all the same tensor type
// (Clang 22 keeps more sugar than Clang 19; canonical types do not care).
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_MODEL_TORCHTYPES_H
#define TORCHTIDY_MODEL_TORCHTYPES_H

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace torchtidy {

/// The kinds of value the device-flow analysis tracks.
enum class TorchValueKind {
  None,         ///< Not something that has a device.
  Tensor,       ///< at::Tensor (torch::Tensor, autograd Variable).
  TensorList,   ///< A container of tensors (std::vector<at::Tensor>, ...).
  Module,       ///< A torch::nn::Module: holder, shared_ptr or the object.
  DeviceSpec,   ///< c10::Device, c10::DeviceType or c10::TensorOptions.
  BatchExample, ///< torch::data::Example<> produced by a data loader.
  TensorTuple,  ///< std::pair / std::tuple holding tensors.
  /// The options of a torch::nn layer, loss or functional: where the
  /// tensors it was given (`.weight(w)`) are, if any.
  ModuleOptions,
};

/// Classifies a type (through references, cv-qualifiers and sugar).
TorchValueKind classifyType(clang::QualType T);

bool isTensorType(clang::QualType T);
bool isDeviceSpecType(clang::QualType T);
bool isTensorOptionsType(clang::QualType T);
/// A std::vector, std::deque or std::list of tensors, of tuples of tensors
/// or of isTensorRecordType objects, or an OrderedDict of tensors
/// (`named_parameters()`). The analysis gives it one value: what its
/// elements are, joined.
bool isTensorContainerType(clang::QualType T);
/// T for a `std::unique_ptr<T>`, which no other code shares; null otherwise.
clang::QualType uniquePtrPointee(clang::QualType T);
/// The `std::unique_ptr` whose object E reaches with `p.get()` or `*p`; null
/// for any other expression.
const clang::Expr *uniquePtrReached(const clang::Expr *E);

/// Where an expression builds a new object, and how: `ReplayMemory(1000)`,
/// `new ReplayMemory(1000)`, `std::make_unique<ReplayMemory>(1000)` or
/// `std::unique_ptr<ReplayMemory>(new ReplayMemory(1000))`. The arguments
/// are the constructor's, as written at the call.
struct ObjectConstruction {
  const clang::CXXConstructorDecl *Constructor = nullptr;
  llvm::SmallVector<const clang::Expr *, 4> Args;
  clang::SourceLocation Loc;
};
/// None for any other expression, and for a copy or a move.
std::optional<ObjectConstruction> objectConstructionOf(const clang::Expr *E);

/// `p.reset(new T(...))` on a `std::unique_ptr` p: the pointer, and the
/// object it takes.
struct UniquePtrReset {
  const clang::Expr *Pointer = nullptr;
  ObjectConstruction Built;
};
std::optional<UniquePtrReset> uniquePtrResetOf(const clang::CallExpr *Call);

/// A class of the user's (not a module, nor LibTorch's or the standard
/// library's) with a tensor among its fields: a replay buffer's
/// `struct Transition { torch::Tensor state, action; float reward; }`.
bool isTensorRecordType(clang::QualType T);
/// The options of a torch::nn layer, loss or functional
/// (`torch::nn::functional::CrossEntropyFuncOptions`,
/// `torch::nn::BCEWithLogitsLossOptions`): some carry tensors
/// (`.weight(w)`, `.pos_weight(p)`) that the op uses with its operands.
bool isModuleOptionsType(clang::QualType T);
/// Options of a type that can be given tensors (CrossEntropyLossOptions,
/// EmbeddingOptions), as opposed to ones that cannot (LinearOptions).
bool moduleOptionsMayHoldTensors(clang::QualType T);
/// std::pair or std::tuple with a tensor (or such a tuple) among its
/// elements: what models return from forward() and helpers return in pairs.
bool isTensorTupleType(clang::QualType T);
/// For `p.first` / `p.second` on a tensor pair: 0 or 1.
std::optional<unsigned> pairMemberIndex(const clang::MemberExpr *Member);
/// For std::get<N>(t) on a tensor tuple: N.
std::optional<unsigned> tupleElementIndex(const clang::CallExpr *Call);
/// std::tie(a, b, ...): a tuple of references to its arguments.
bool isTieCall(const clang::CallExpr *Call);

/// An `#include <...>` name of one of LibTorch's headers: `torch/...`,
/// `ATen/...`, `c10/...`, `caffe2/...` (what parsing a LibTorch file costs).
bool isLibTorchHeaderName(llvm::StringRef IncludeName);

/// Whether the declaration lives in LibTorch's namespaces (at, c10, torch),
/// members of their classes included.
bool isInLibTorchNamespace(const clang::Decl *D);
/// Whether Namespace is one of LibTorch's top-level namespaces or `std`:
/// code in it calls none of the user's functions.
bool isLibraryNamespace(const clang::NamespaceDecl *Namespace);
/// Whether the declaration lives in namespace std (members included).
bool isInStandardLibrary(const clang::Decl *D);

} // namespace torchtidy

#endif // TORCHTIDY_MODEL_TORCHTYPES_H
