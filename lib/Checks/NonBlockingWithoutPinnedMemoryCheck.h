//===--- NonBlockingWithoutPinnedMemoryCheck.h ------------------*- C++ -*-===//
//
// libtorch-non-blocking-without-pinned-memory: `x.to(device, true)` with
// `non_blocking=true` from a host tensor in pageable memory. A copy to the
// device overlaps with the host only from pinned (page-locked) memory; from
// pageable memory it is synchronous, so the flag does nothing and suggests
// an overlap that never happens. Data-loader batches, factory results,
// from_blob tensors and op results are pageable; `.pin_memory()` and
// `TensorOptions().pinned_memory(true)` are pinned. A source whose memory is
// not known (a parameter) is not reported.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_CHECKS_NONBLOCKINGWITHOUTPINNEDMEMORYCHECK_H
#define TORCHTIDY_CHECKS_NONBLOCKINGWITHOUTPINNEDMEMORYCHECK_H

#include "Checks/DeviceFlowCheck.h"

namespace torchtidy {

class NonBlockingWithoutPinnedMemoryCheck : public DeviceFlowCheck {
public:
  using DeviceFlowCheck::DeviceFlowCheck;

protected:
  void report(const DeviceFlowResult &Flow, clang::ASTContext &Ctx) override;
};

} // namespace torchtidy

#endif // TORCHTIDY_CHECKS_NONBLOCKINGWITHOUTPINNEDMEMORYCHECK_H
