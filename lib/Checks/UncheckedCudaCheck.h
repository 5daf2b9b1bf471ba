//===--- UncheckedCudaCheck.h - libtorch-unchecked-cuda ---------*- C++ -*-===//
//
// A translation unit that places tensors or modules on an accelerator but
// never asks whether that accelerator is there: CUDA without
// torch::cuda::is_available() (or device_count()), MPS without
// torch::mps::is_available(), XPU without torch::xpu::is_available(). On a
// machine without it the program dies with "PyTorch is not linked with
// support for cuda devices" or a driver error instead of falling back to the
// CPU. Reported once per translation unit and accelerator, at its first
// placement there. The name says CUDA, the accelerator LibTorch 1.x had;
// it stays, as configurations name it.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_CHECKS_UNCHECKEDCUDACHECK_H
#define TORCHTIDY_CHECKS_UNCHECKEDCUDACHECK_H

#include "Checks/LibTorchCheck.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace torchtidy {

class UncheckedCudaCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  const clang::SourceManager *Sources = nullptr;
  /// Per accelerator type with an availability query: the first placement.
  llvm::StringMap<clang::SourceLocation> FirstPlacement;
  /// The accelerator types the translation unit asks about.
  llvm::StringSet<> Queried;
};

} // namespace torchtidy

#endif // TORCHTIDY_CHECKS_UNCHECKEDCUDACHECK_H
