//===--- LoopInvariantTransferCheck.h -
// libtorch-loop-invariant-transfer -*- C++ -*-===//
//
// `x.to(device)` inside a loop where `x` is a local declared before the loop
// and not changed in it: the same host-to-device copy every iteration.
// Moving it once before the loop gives the same tensor.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_CHECKS_LOOPINVARIANTTRANSFERCHECK_H
#define TORCHTIDY_CHECKS_LOOPINVARIANTTRANSFERCHECK_H

#include "Checks/LibTorchCheck.h"

namespace torchtidy {

class LoopInvariantTransferCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchtidy

#endif // TORCHTIDY_CHECKS_LOOPINVARIANTTRANSFERCHECK_H
