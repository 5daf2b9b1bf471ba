//===--- UnregisteredModuleMemberCheck.h -
// libtorch-unregistered-module-member -*- C++ -*-===//
//
// A torch::nn::Module subclass with a submodule handle (torch::nn::Linear,
// any TORCH_MODULE holder, std::shared_ptr<SomeModule>) or a parameter-like
// tensor (one that requires grad) that it sets but never passes to
// register_module / register_parameter / register_buffer. Such a member is
// invisible to the module: `model->to(device)` leaves it on the host and
// `parameters()` never hands it to the optimizer. Fix-it: wrap the value
// assigned in `register_module("<member>", ...)` (or register_parameter).
// Also a new tensor assigned to a parameter a LibTorch layer registered
// (`fc->weight = ...`), which leaves the registered one in its place.
// Fix-it: `fc->weight.set_data(...)`.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_CHECKS_UNREGISTEREDMODULEMEMBERCHECK_H
#define TORCHTIDY_CHECKS_UNREGISTEREDMODULEMEMBERCHECK_H

#include "Checks/LibTorchCheck.h"
#include "llvm/ADT/DenseSet.h"

namespace torchtidy {

class UnregisteredModuleMemberCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override { ReportedFields.clear(); }

private:
  void reportRebinding(const clang::CXXOperatorCallExpr *Assignment,
                       const clang::MemberExpr *Member,
                       const clang::SourceManager &Sources);

  /// Fields already reported: every instantiation of a class template has
  /// its own copy of each field, at the same location.
  llvm::DenseSet<clang::SourceLocation::UIntTy> ReportedFields;
};

} // namespace torchtidy

#endif // TORCHTIDY_CHECKS_UNREGISTEREDMODULEMEMBERCHECK_H
