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

#include <vector>

namespace torchtidy {

class HardcodedDeviceCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  struct Literal {
    clang::SourceRange Range;
    llvm::StringRef DeviceType; ///< "cuda", "mps", ...: static strings.
    std::string Text;
  };
  /// Literals are judged at the end of the translation unit, against the
  /// places that define a device (variable initializers, assignments to
  /// device variables, returns of device-returning functions): collecting
  /// those top-down avoids a parent map over all of LibTorch.
  std::vector<Literal> Literals;
  std::vector<clang::SourceRange> DeviceDefinitions;
  const clang::SourceManager *Sources = nullptr;
};

} // namespace torchtidy

#endif // TORCHTIDY_CHECKS_HARDCODEDDEVICECHECK_H
