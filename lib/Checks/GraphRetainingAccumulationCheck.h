//===--- GraphRetainingAccumulationCheck.h -
// libtorch-graph-retaining-accumulation -*- C++ -*-===//
//
// `total += loss` or `losses.push_back(loss)` in a loop, where `loss` carries
// autograd history and the accumulator outlives the iteration without ever
// being backpropagated: every iteration's graph stays alive until memory runs
// out. Fix-its: `.item<double>()` for a running 0-dim total, `.detach()` for
// tensors that are kept.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_CHECKS_GRAPHRETAININGACCUMULATIONCHECK_H
#define TORCHTIDY_CHECKS_GRAPHRETAININGACCUMULATIONCHECK_H

#include "Checks/DeviceFlowCheck.h"

namespace torchtidy {

class GraphRetainingAccumulationCheck : public DeviceFlowCheck {
public:
  using DeviceFlowCheck::DeviceFlowCheck;

protected:
  void report(const DeviceFlowResult &Flow, clang::ASTContext &Ctx) override;
};

} // namespace torchtidy

#endif // TORCHTIDY_CHECKS_GRAPHRETAININGACCUMULATIONCHECK_H
