//===--- HostSyncInLoopCheck.cpp - libtorch-host-sync-in-loop -------------===//

#include "Checks/HostSyncInLoopCheck.h"
#include "Checks/FindingWording.h"

using namespace clang;

namespace torchtidy {

void HostSyncInLoopCheck::report(const DeviceFlowResult &Flow,
                                 ASTContext &Ctx) {
  for (const HostSyncInLoop &Sync : Flow.HostSyncs) {
    if (!isFirstReportAt(Sync.Call->getExprLoc()))
      continue;
    diag(Sync.Call->getExprLoc(),
         "'%0' copies '%1' (on %2) to the host and waits for the device in "
         "every iteration; accumulate on the device and read the value once "
         "per logging interval")
        << Sync.What << Sync.Tensor.Spelling
        << Sync.Tensor.Value.Where.describe();
    diag(Sync.Loop->getBeginLoc(), "in this loop", DiagnosticIDs::Note);
    addOriginNotes(*this, Sync.Tensor);
  }
}

} // namespace torchtidy
