//===--- HostSyncInLoopCheck.h - libtorch-host-sync-in-loop -----*- C++ -*-===//
//
// `.item()`, `.cpu()`, `.to(kCPU)`, printing, nonzero(), equal() on a tensor
// that may be on a device, in every iteration of a loop: each one copies to
// the host and waits for the device to finish its queued work, so the GPU
// idles once per iteration. Not reported inside `if (step % N == 0)`-style
// logging branches, which run once per interval.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_CHECKS_HOSTSYNCINLOOPCHECK_H
#define TORCHTIDY_CHECKS_HOSTSYNCINLOOPCHECK_H

#include "Checks/DeviceFlowCheck.h"

namespace torchtidy {

class HostSyncInLoopCheck : public DeviceFlowCheck {
public:
  using DeviceFlowCheck::DeviceFlowCheck;

protected:
  void report(const DeviceFlowResult &Flow, clang::ASTContext &Ctx) override;
};

} // namespace torchtidy

#endif // TORCHTIDY_CHECKS_HOSTSYNCINLOOPCHECK_H
