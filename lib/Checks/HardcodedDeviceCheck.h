//===--- HardcodedDeviceCheck.h - libtorch-hardcoded-device -----*- C++ -*-===//
//
// A device other than the CPU written into the code (torch::kCUDA,
// torch::Device("cuda:1"), .cuda()) anywhere but where a device variable is
// defined. The article's first rule: one device variable for the whole
// program, so that moving to another GPU, or to a CPU-only machine, is a
// one-line change and every tensor follows the same decision.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_CHECKS_HARDCODEDDEVICECHECK_H
#define TORCHTIDY_CHECKS_HARDCODEDDEVICECHECK_H

#include "Checks/LibTorchCheck.h"

namespace torchtidy {

class HardcodedDeviceCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchtidy

#endif // TORCHTIDY_CHECKS_HARDCODEDDEVICECHECK_H
