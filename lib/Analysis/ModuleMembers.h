//===--- ModuleMembers.h - What a module class registers --------*- C++ -*-===//
//
// What a torch::nn::Module subclass's own code (its constructors, methods and
// in-class initializers) does with each member that a module must register:
// submodule handles and tensors. Registered members are part of the module:
// `to(device)` moves them, `parameters()` returns them, `train()`/`eval()`
// reach them. The unregistered-module-member check reports the others; the
// device-flow analysis places only registered members on the module's
// device.
//
// A class with a constructor this translation unit does not define is not
// judged: that constructor may register anything. Nor is a class that an
// error made invalid: clang drops the bodies it could not make sense of.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_ANALYSIS_MODULEMEMBERS_H
#define TORCHTIDY_ANALYSIS_MODULEMEMBERS_H

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/MapVector.h"

namespace torchtidy {

/// What the class's own code does with one member that needs registering.
struct ModuleMember {
  bool IsSubmodule = false; ///< else a tensor
  /// Passed to register_module/register_parameter/register_buffer, or added
  /// to a container module that is itself a member or registered.
  bool Registered = false;
  bool RequiresGrad = false; ///< tensors: created or marked requiring grad
  /// Given `nullptr` somewhere (`fc{nullptr}`, `fc(nullptr)`): without a
  /// later assignment it holds no module.
  bool InitializedEmpty = false;
  /// Returned by a method of the class (`Sequential get_module() { return
  /// main; }`): callers may use the member on its own.
  bool HandedOut = false;
  /// Named by a constructor's initializer list or a method's body (not only
  /// by its own declaration).
  bool Used = false;
  /// Where the member first gets a value, and that value when it is one
  /// complete expression (so it can be wrapped in register_*). Invalid when
  /// it never gets one.
  clang::SourceLocation SetAt;
  const clang::Expr *SetValue = nullptr;
};

struct ModuleMembers {
  /// Every constructor is defined in this translation unit (or implicit), so
  /// the members' registration can be judged. When false, Members is empty.
  bool AllConstructorsSeen = false;
  /// Every method and method template the class declares is defined in this
  /// translation unit, so what its code does with a member is all seen.
  bool AllMethodsSeen = false;
  /// The class declares a `forward` (or inherits one from a module of the
  /// user's): it is called as a module, and runs its members itself.
  bool HasForward = false;
  llvm::MapVector<const clang::FieldDecl *, ModuleMember> Members;
  /// The elements of member arrays (or std::array, std::vector) of
  /// submodule handles, by index (`norm[2] = torch::nn::LayerNorm(...)`):
  /// each is a submodule of its own. Only for an array whose every use in
  /// the class's code names one element by a constant index; any other use
  /// (a loop over it, an element by a variable index, the array passed on)
  /// may register any element.
  llvm::MapVector<std::pair<const clang::FieldDecl *, uint64_t>, ModuleMember>
      Elements;
};

/// Reads a module class (a definition, not a dependent template pattern).
/// The analysis reads each class once per unit, through UnitAnalysis
/// (isRegisteredModuleMember, isUnregisteredModuleMember).
ModuleMembers collectModuleMembers(const clang::CXXRecordDecl *ModuleClass);

} // namespace torchtidy

#endif // TORCHTIDY_ANALYSIS_MODULEMEMBERS_H
