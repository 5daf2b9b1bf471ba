//===--- UncheckedCudaCheck.h - libtorch-unchecked-cuda ---------*- C++ -*-===//
//
// A translation unit that places tensors or modules on CUDA but never asks
// torch::cuda::is_available() (or device_count()): on a machine without a
// usable GPU it dies with "PyTorch is not linked with support for cuda
// devices" or a CUDA driver error instead of falling back to the CPU.
// Reported once per translation unit, at its first CUDA placement.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_CHECKS_UNCHECKEDCUDACHECK_H
#define TORCHTIDY_CHECKS_UNCHECKEDCUDACHECK_H

#include "Checks/LibTorchCheck.h"

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
  clang::SourceLocation FirstPlacement;
  bool ChecksAvailability = false;
};

} // namespace torchtidy

#endif // TORCHTIDY_CHECKS_UNCHECKEDCUDACHECK_H
