//===--- NonBlockingWithoutPinnedMemoryCheck.cpp --------------------------===//
//
// No fix-it: pinning needs CUDA at run time (pin_memory() throws on a
// CPU-only build) and dropping the flag is a choice between two edits.
//
//===----------------------------------------------------------------------===//

#include "Checks/NonBlockingWithoutPinnedMemoryCheck.h"
#include "Checks/FindingWording.h"

using namespace clang;

namespace torchtidy {

void NonBlockingWithoutPinnedMemoryCheck::report(const DeviceFlowResult &Flow,
                                                 ASTContext &Ctx) {
  for (const NonBlockingFromPageable &Copy : Flow.NonBlockingCopies) {
    if (!isFirstReportAt(Copy.Call->getExprLoc()))
      continue;
    {
      // Emitted at the end of this scope, before the notes that follow it.
      auto Diag = diag(Copy.Call->getExprLoc(),
                       "'non_blocking' has no effect: '%0' is in pageable "
                       "host memory%1, so the copy to %2 is synchronous; pin "
                       "the source with .pin_memory() or drop non_blocking")
                  << Copy.Source.Spelling << reasonInParens(Copy.Source.Value)
                  << Copy.Target;
      if (Copy.NonBlocking)
        Diag << Copy.NonBlocking->getSourceRange();
    }
    addOriginNotes(*this, Copy.Source);
  }
}

} // namespace torchtidy
