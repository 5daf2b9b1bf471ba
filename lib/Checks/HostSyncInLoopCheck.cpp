//===--- HostSyncInLoopCheck.cpp - libtorch-host-sync-in-loop -------------===//

#include "Checks/HostSyncInLoopCheck.h"
#include "Checks/FindingWording.h"
#include "Model/TorchApi.h"

using namespace clang;

namespace torchtidy {

void HostSyncInLoopCheck::report(const DeviceFlowResult &Flow,
                                 ASTContext &Ctx) {
  for (const HostSyncInLoop &Sync : Flow.HostSyncs) {
    if (!isFirstReportAt(Sync.Call->getExprLoc()))
      continue;
    std::string Helper = Sync.CopyInHelper.isValid()
                             ? calleeDisplayName(Sync.Call)
                             : std::string();
    diag(Sync.Call->getExprLoc(),
         "'%0' copies '%1' (on %2) to the host %select{|inside '%4' }3and "
         "waits for the device in every iteration; accumulate on the device "
         "and read the value once per logging interval")
        << Sync.What << Sync.Tensor.Spelling
        << Sync.Tensor.Value.Where.describe() << !Helper.empty() << Helper;
    diag(Sync.Loop->getBeginLoc(), "in this loop", DiagnosticIDs::Note);
    if (Sync.CopyInHelper.isValid())
      diag(Sync.CopyInHelper,
           "'%0' copies '%1' to the host here, each time '%2' runs",
           DiagnosticIDs::Note)
          << Sync.What << Sync.Tensor.Spelling << Helper;
    addOriginNotes(*this, Sync.Tensor);
  }
}

} // namespace torchtidy
