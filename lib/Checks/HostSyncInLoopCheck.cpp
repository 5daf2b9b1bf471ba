//===--- HostSyncInLoopCheck.cpp - libtorch-host-sync-in-loop -------------===//

#include "Checks/HostSyncInLoopCheck.h"
#include "Checks/FindingWording.h"
#include "Model/TorchApi.h"

using namespace clang;

namespace torchtidy {

/// What to do instead, by the kind of copy: a value checked in an
/// assertion, the parts of a finished result read one by one, a value read
/// to log or total, data copied to work on it on the host, or a result whose
/// truth the host needs.
static llvm::StringRef adviceFor(const HostSyncInLoop &Sync) {
  llvm::StringRef What = Sync.What;
  if (Sync.Use == HostUse::Asserted)
    return "move the check into the branch that logs, so that it runs once "
           "per logging interval";
  if (Sync.ReadsOutResult)
    return "copy the whole result to the host once, before the loop, and "
           "read its parts there";
  if (What == ".item()" || What == "<<")
    return "accumulate on the device and read the value once per logging "
           "interval";
  if (What == ".cpu()" || What == ".to()")
    return "copy once, outside the loop, or keep each iteration's work on "
           "the device";
  return "keep each iteration's work on the device, or batch it and read "
         "the result once";
}

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
         "waits for the device in every iteration; %5")
        << Sync.What << Sync.Tensor.Spelling
        << Sync.Tensor.Value.Where.describe() << !Helper.empty() << Helper
        << adviceFor(Sync);
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
