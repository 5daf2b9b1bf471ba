//===--- TorchApi.h - What LibTorch APIs do to devices ----------*- C++ -*-===//
//
// The one place that knows LibTorch's API: which types are tensors, modules
// and devices, which calls create, move or combine tensors, and what each does
// to placement and autograd history. The analysis and the checks ask this
// model; none of them matches LibTorch names on its own.
//
// Types are always compared through their canonical type, so `torch::Tensor`,
// `at::Tensor`, `const auto &` and user aliases are all the same tensor type
// (Clang 22 keeps more sugar than Clang 19; canonical types do not care).
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_MODEL_TORCHAPI_H
#define TORCHTIDY_MODEL_TORCHAPI_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Type.h"
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
};

/// Classifies a type (through references, cv-qualifiers and sugar).
TorchValueKind classifyType(clang::QualType T);

bool isTensorType(clang::QualType T);
bool isModuleType(clang::QualType T);
bool isDeviceSpecType(clang::QualType T);
bool isTensorOptionsType(clang::QualType T);
bool isTensorContainerType(clang::QualType T);
bool isBatchExampleType(clang::QualType T);
/// std::pair or std::tuple with a tensor (or such a tuple) among its
/// elements: what models return from forward() and helpers return in pairs.
bool isTensorTupleType(clang::QualType T);
/// For `p.first` / `p.second` on a tensor pair: 0 or 1.
std::optional<unsigned> pairMemberIndex(const clang::MemberExpr *Member);
/// For `ex.data` / `ex.target` on a torch::data::Example: 0 or 1.
std::optional<unsigned> exampleMemberIndex(const clang::MemberExpr *Member);
/// For std::get<N>(t) on a tensor tuple: N.
std::optional<unsigned> tupleElementIndex(const clang::CallExpr *Call);
/// std::tie(a, b, ...): a tuple of references to its arguments.
bool isTieCall(const clang::CallExpr *Call);
/// RAII guards that turn autograd recording off for their scope:
/// torch::NoGradGuard, c10::InferenceMode, AutoGradMode.
bool isGradDisablingGuardType(clang::QualType T);

/// torch::nn::Module or a class derived from it.
bool isModuleClass(const clang::CXXRecordDecl *RD);

/// The torch::nn::Module subclass behind a module-typed value: the `Impl` of a
/// ModuleHolder, the pointee of a shared_ptr, or the class itself.
const clang::CXXRecordDecl *moduleClassOf(clang::QualType T);

/// A shared handle to a module: a ModuleHolder (torch::nn::Linear, any
/// TORCH_MODULE) or a std::shared_ptr to a Module subclass. Handles are what
/// register_module takes; a module held by value cannot be registered.
bool isModuleHandleType(clang::QualType T);

/// A ModuleHolder (torch::nn::Linear, any TORCH_MODULE): unlike a
/// shared_ptr, a default-constructed holder already holds a module.
bool isModuleHolderType(clang::QualType T);

/// A call of torch::nn::Module's register_module, register_parameter or
/// register_buffer: what makes a member part of the module for ->to(),
/// parameters() and serialization.
bool isModuleRegistrationCall(const clang::CallExpr *Call);

/// A LibTorch call that works in place and hands back the tensor it worked
/// on: the methods and functions whose names end in `_` (`copy_`, `zero_`,
/// `torch::nn::init::normal_`).
bool isInPlaceCall(const clang::CallExpr *Call);

/// A tensor member of one of LibTorch's own modules (`LinearImpl::weight`,
/// `BatchNorm2dImpl::running_mean`): a parameter or buffer the layer
/// registered. Assigning a new tensor to it rebinds the member and leaves
/// the registered tensor in parameters(), buffers() and to(device).
bool isRegisteredLayerTensor(const clang::FieldDecl *Field);

/// An `#include <...>` name of one of LibTorch's headers: `torch/...`,
/// `ATen/...`, `c10/...`, `caffe2/...` (what parsing a LibTorch file costs).
bool isLibTorchHeaderName(llvm::StringRef IncludeName);

/// torch::nn::Sequential, ModuleList or ModuleDict (holder, Impl or
/// shared_ptr): a module whose children are registered when added, so a
/// layer added to a registered container is registered too.
bool isModuleContainerType(clang::QualType T);

/// An expression that adds modules to a container module: a call of
/// `seq->push_back(m)`, `emplace_back`, `extend`, `insert` or `update`, or
/// the container's construction from modules (`torch::nn::Sequential(a, b)`,
/// `std::make_shared<torch::nn::SequentialImpl>(a, b)`). The modules are
/// among its arguments.
bool isModuleContainerInsertion(const clang::Expr *E);

/// Whether a module of this class owns (or may own) parameters or buffers, so
/// that it has a device that its inputs must match. Built-in layers such as
/// Linear do; losses and activations do not; a user module does when it has
/// tensor or module members, registers anything, or has a constructor that
/// this translation unit cannot see.
bool moduleHoldsParameters(const clang::CXXRecordDecl *ModuleClass);

/// Whether a module may behave differently in training and evaluation, so
/// that it must hear the model's train()/eval(): among the built-ins the
/// dropout family (those with weights aside); a module of the user's whose
/// code reads is_training(), holds such a module, or is partly defined in
/// another translation unit (it may).
bool moduleDependsOnTrainingMode(const clang::CXXRecordDecl *ModuleClass);

/// Whether calling this module class yields a 0-dim tensor (a loss module
/// with its default mean reduction).
bool moduleReturnsScalar(const clang::CXXRecordDecl *ModuleClass);

/// A device named by a LibTorch constant or enumerator: kCPU, kCUDA, kMeta,
/// DeviceType::CUDA, ... Returns its lower-case type name ("cuda").
std::optional<llvm::StringRef> deviceTypeNamed(const clang::ValueDecl *D);

/// The device type a device expression spells out: kCUDA, DeviceType::CUDA,
/// torch::Device(torch::kCUDA, 1), torch::Device("cuda:1"), "cuda",
/// torch::device(kCUDA). std::nullopt for variables and computed values.
std::optional<llvm::StringRef> spelledDeviceType(const clang::Expr *E);

/// Where a migration (tensor or module .to/.cuda/.cpu) sends its data.
enum class TransferTarget {
  None,    ///< Not a migration, or one that changes only the dtype.
  Host,    ///< .cpu(), .to(kCPU).
  OffHost, ///< .cuda(), .to(kCUDA), .to("cuda:1").
  Unknown, ///< .to(device) with a device variable: may leave the host.
};
TransferTarget transferTarget(const clang::CallExpr *Call);

/// A call that copies a tensor's data to the host and so waits for the
/// device to finish: .item(), .cpu(), .to(kCPU), nonzero(), equal(),
/// is_nonzero(), and printing a tensor to a stream. The tensor is the call's
/// first tensor operand.
bool synchronizesWithHost(const clang::CallExpr *Call);

/// The accelerator whose presence a call asks about, for code that checks
/// before using it: "cuda" for torch::cuda::is_available() / device_count()
/// and at::hasCUDA(), "mps" for torch::mps::is_available() and at::hasMPS(),
/// "xpu" for torch::xpu::is_available() / device_count() and at::hasXPU().
/// std::nullopt for any other call.
std::optional<llvm::StringRef> queriedAccelerator(const clang::CallExpr *Call);

/// How a program asks whether an accelerator type is present, as the user
/// writes it ("torch::mps::is_available()"); empty for a type LibTorch's C++
/// API has no such question for.
llvm::StringRef availabilityQueryFor(llvm::StringRef DeviceType);

/// Whether a LibTorch call being true means the device is an accelerator:
/// true for `is_cuda()`, `is_mps()` and `is_xpu()` on a device or tensor,
/// false for `is_cpu()` (a LibTorch build trains on the CPU or on one
/// accelerator, so not the CPU means that accelerator); nullopt for any
/// other call.
std::optional<bool> testsForAcceleratorDevice(const clang::CallExpr *Call);

/// The user-defined Dataset or transform method that produces examples:
/// get()/get_batch() of a torch::data::datasets::BatchDataset subclass,
/// apply()/apply_batch() of a torch::data::transforms::BatchTransform one,
/// operator() of a TensorTransform.
bool isDataPipelineMethod(const clang::CXXMethodDecl *Method);

/// Whether the declaration lives in LibTorch's namespaces (at, c10, torch),
/// members of their classes included.
bool isInLibTorchNamespace(const clang::Decl *D);
/// Whether the declaration lives in namespace std (members included).
bool isInStandardLibrary(const clang::Decl *D);

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
  ContainerAppend,    ///< tensors.push_back(x), emplace_back(x).
  TupleElement,       ///< std::get<N>(t) on a tuple of tensors.
  TupleConstruction,  ///< std::make_pair / make_tuple / tie of tensors.
};

/// Classifies a call by its callee (and, for methods, the object's type).
TorchCallKind classifyCall(const clang::CallExpr *Call);

/// The object a member call is made on, or null for free functions. Sees
/// through `holder->` (operator-> of ModuleHolder and shared_ptr) and `*`.
const clang::Expr *callObject(const clang::CallExpr *Call);

/// The index of the call argument bound to the callee's first parameter: 1
/// in a member operator call (`closure(x)`: argument 0 is the object), else
/// 0.
unsigned firstParameterArgument(const clang::CallExpr *Call);

/// The arguments of a call that carry tensors, in source order (the object of
/// a method call first). TensorList arguments (`torch::cat({a, b})`) are
/// flattened into their element expressions.
llvm::SmallVector<const clang::Expr *, 4>
tensorOperands(const clang::CallExpr *Call);

/// For a loss (torch::nn::functional::cross_entropy, a loss module call):
/// the prediction, its first tensor input. Its other inputs are targets,
/// which belong wherever the prediction is. Null for any other call.
const clang::Expr *lossPrediction(const clang::CallExpr *Call);

/// The first argument that says where a result goes: a Device, a DeviceType
/// or a TensorOptions. Null when the call leaves the default (the CPU).
const clang::Expr *deviceArgument(const clang::CallExpr *Call);

/// For tensor.to(other): the tensor whose device is copied.
const clang::Expr *deviceSourceTensorArgument(const clang::CallExpr *Call);

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

/// The tensor, or std::vector of tensors, that an element or view
/// expression is part of: `buf` for `buf[i]`, `buf.index({i})`,
/// `buf.select(0, i)`, `buf.narrow(0, i, 1)`, `buf.slice(0, a, b)`,
/// `v[i]` and `v.at(i)`, through any nesting. E itself when it is none.
const clang::Expr *viewedStorage(const clang::Expr *E);

/// An op that always returns a new tensor, never one of its operands or a
/// view of one: arithmetic and comparison operators, clone(), cat(),
/// matmul(). Used where a view of a pinned tensor would still be pinned.
bool allocatesNewTensor(const clang::CallExpr *Call);

/// Whether `torch::tensor(x)` makes a 0-dim tensor: a single arithmetic value,
/// not a braced list.
bool isScalarTensorLiteral(const clang::CallExpr *Call);

/// A short name for a LibTorch callee as users write it ("torch::randn",
/// "+", "forward").
std::string calleeDisplayName(const clang::CallExpr *Call);

/// The source text of a range as written: in the file, or, for code that
/// comes from one macro definition or argument, there. Empty when the range
/// is split between several (a macro body around a macro argument).
std::string writtenText(clang::SourceRange Range, const clang::ASTContext &Ctx);

/// Strips what does not change the value: parens, implicit casts, temporaries,
/// copies and moves of the same type, std::move.
const clang::Expr *ignoreValuePreserving(const clang::Expr *E);

/// Whether the expression creates a 0-dim tensor from a scalar
/// (`torch::zeros({})`, `torch::tensor(0.0)`, `torch::scalar_tensor(x)`).
bool isScalarFactoryCall(const clang::Expr *E);

} // namespace torchtidy

#endif // TORCHTIDY_MODEL_TORCHAPI_H
