//===--- SpelledDevice.h - Devices written into the code --------*- C++ -*-===//
//
// What libtorch-hardcoded-device and libtorch-unchecked-cuda both look for:
// the places a device type is spelled out (torch::kCUDA, DeviceType::CUDA,
// torch::Device("cuda:1"), .cuda()), found with one set of matchers.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_CHECKS_SPELLEDDEVICE_H
#define TORCHTIDY_CHECKS_SPELLEDDEVICE_H

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace torchtidy {

struct SpelledDevice {
  clang::SourceRange Range; ///< the literal, or the whole .cuda() call
  llvm::StringRef Type;     ///< "cuda", "cpu", ...
  bool IsMigrationCall;     ///< .cuda(): the method name is the device
};

/// Registers the matchers whose results spelledDeviceIn() reads.
void addSpelledDeviceMatchers(
    clang::ast_matchers::MatchFinder *Finder,
    clang::ast_matchers::MatchFinder::MatchCallback *Check);

/// The spelled device a match of those matchers found, if it is one.
std::optional<SpelledDevice>
spelledDeviceIn(const clang::ast_matchers::MatchFinder::MatchResult &Result);

} // namespace torchtidy

#endif // TORCHTIDY_CHECKS_SPELLEDDEVICE_H
