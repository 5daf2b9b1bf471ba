//===--- Modules.h - torch::nn modules and their registration ---*- C++ -*-===//
//
// The module facet of the LibTorch model: which classes are torch::nn modules
// and how a value holds one (a ModuleHolder, a shared_ptr, the object), what
// registers a member with its module (register_module/_parameter/_buffer,
// containers such as Sequential), and what a module class implies: whether it
// holds parameters, depends on train()/eval() or returns a 0-dim loss. A
// module has a device of its own, its parameters', which its inputs must
// match, and only what is registered moves with ->to(device).
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_MODEL_MODULES_H
#define TORCHTIDY_MODEL_MODULES_H

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace torchtidy {

bool isModuleType(clang::QualType T);

/// torch::nn::Module or a class derived from it.
bool isModuleClass(const clang::CXXRecordDecl *RD);

/// A `forward` method of a torch::nn::Module subclass. One call builds one
/// step of the caller's graph: the outputs it keeps along the way (a skip
/// connection's, a feature pyramid's levels) are that graph's, and die with
/// the call unless it returns them.
bool isModuleForwardMethod(const clang::FunctionDecl *F);

/// The forward() of the user's that a module call runs: the callee itself,
/// or, for a holder's `operator()`, the module class's only forward(). Null
/// for a LibTorch module, or when overloads leave it open.
const clang::CXXMethodDecl *
userForwardCalled(const clang::CallExpr *Call,
                  const clang::CXXRecordDecl *ModuleClass);

/// The torch::nn::Module subclass behind a module-typed value: the `Impl` of a
/// ModuleHolder, the pointee of a shared_ptr, or the class itself.
const clang::CXXRecordDecl *moduleClassOf(clang::QualType T);

/// A shared handle to a module: a ModuleHolder (torch::nn::Linear, any
/// TORCH_MODULE) or a std::shared_ptr to a Module subclass. Handles are what
/// register_module takes; a module held by value cannot be registered.
bool isModuleHandleType(clang::QualType T);

/// The handle type of the elements of an array, std::array or std::vector of
/// module handles (`torch::nn::LayerNorm norm[3]`); null for any other type.
/// Each element is a submodule of its own, registered or not.
clang::QualType moduleHandleElementType(clang::QualType T);

/// A ModuleHolder (torch::nn::Linear, any TORCH_MODULE): unlike a
/// shared_ptr, a default-constructed holder already holds a module.
bool isModuleHolderType(clang::QualType T);

/// A call of torch::nn::Module's register_module, register_parameter or
/// register_buffer: what makes a member part of the module for ->to(),
/// parameters() and serialization.
bool isModuleRegistrationCall(const clang::CallExpr *Call);

/// A tensor member of one of LibTorch's own modules (`LinearImpl::weight`,
/// `BatchNorm2dImpl::running_mean`): a parameter or buffer the layer
/// registered. Assigning a new tensor to it rebinds the member and leaves
/// the registered tensor in parameters(), buffers() and to(device).
bool isRegisteredLayerTensor(const clang::FieldDecl *Field);

/// The module a member is read from: `net` in `net->fc1`, `net.fc1` and
/// `(*net).fc1`. Null when the member is no module's, or is read from
/// `this` (a method's own members are the method's business).
const clang::Expr *moduleObjectOfMember(const clang::MemberExpr *Member);

/// `net->parameters()`, `named_parameters()`, `buffers()`,
/// `named_buffers()`: LibTorch's accessors of a module's own tensors, which
/// are wherever the module is.
bool isModuleTensorsAccessor(const clang::CallExpr *Call);

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

/// Whether a module of this class owns parameters or buffers, so that it has
/// a device that its inputs must match. Built-in layers such as Linear do;
/// losses and activations do not; a user module does when it has
/// submodules that do, or registers a parameter, a buffer or such a
/// submodule (a plain tensor member is neither). None when that rests on
/// code this translation unit cannot see (a constructor or reset() another
/// file defines, here or in a submodule's class) and nothing it can see
/// says yes.
std::optional<bool>
moduleHoldsParameters(const clang::CXXRecordDecl *ModuleClass);

/// Whether a module may behave differently in training and evaluation, so
/// that it must hear the model's train()/eval(): among the built-ins the
/// dropout family (those with weights aside); a module of the user's whose
/// code reads is_training(), holds such a module, or is partly defined in
/// another translation unit (it may).
bool moduleDependsOnTrainingMode(const clang::CXXRecordDecl *ModuleClass);

/// What a branch condition tests of the training mode: true for
/// `is_training()` (of any module), false for `!is_training()`, none for
/// anything else.
std::optional<bool> trainingModeTestedBy(const clang::Expr *Condition);

/// What a call does to a module's mode.
enum class ModeSwitch {
  None,       ///< Not a mode switch.
  Training,   ///< `train()`, `train(true)`.
  Evaluation, ///< `eval()`, `train(false)`.
  Unknown,    ///< `train(on)` with a flag the code computes.
};

/// What the call does to a module's mode; a module of the user's may
/// override train(bool), and its calls count too.
ModeSwitch modeSwitchOf(const clang::CallExpr *Call);

/// Whether the call may put a module in evaluation mode: `eval()`, or
/// `train(on)` with anything but a literal `true`. Modules start in training
/// mode, so where no such call runs, is_training() is always true.
bool mayEnterEvalMode(const clang::CallExpr *Call);

/// Whether calling this module class yields a 0-dim tensor (a loss module
/// with its default mean reduction).
bool moduleReturnsScalar(const clang::CXXRecordDecl *ModuleClass);

/// A checkpoint written or read: `torch::save(value, path)` or
/// `torch::load(value, path[, device])`, of a module, tensor or optimizer.
/// LibTorch restores each tensor to the device it was saved from, or to the
/// device load is given.
struct CheckpointCall {
  bool IsLoad = false;
  const clang::Expr *Value = nullptr;
  /// The file name or stream, as the call gives it.
  const clang::Expr *Path = nullptr;
  /// load's device argument, if given.
  const clang::Expr *Device = nullptr;
};
std::optional<CheckpointCall> checkpointCall(const clang::CallExpr *Call);

/// `torch::nn::parallel::data_parallel(module, input, devices,
/// output_device)` (torch/nn/parallel/data_parallel.h). With one device it
/// moves the module itself there, and the input; with several it clones the
/// module to each device on every call and reduces the gradients onto the
/// module's own device; without a list it uses every CUDA device. Its
/// output is on output_device, else on the first device, else on `cuda:0`.
struct DataParallelCall {
  const clang::Expr *Module = nullptr;
  const clang::Expr *Input = nullptr;
  /// Whether the call gives its devices; with DeviceList empty, they are
  /// not written as a list (a variable).
  bool DevicesGiven = false;
  /// The devices, as a braced list writes them (`{device}`).
  llvm::SmallVector<const clang::Expr *, 4> DeviceList;
  /// output_device, when the call gives it.
  const clang::Expr *OutputDevice = nullptr;
};
std::optional<DataParallelCall> dataParallelCall(const clang::CallExpr *Call);

} // namespace torchtidy

#endif // TORCHTIDY_MODEL_MODULES_H
