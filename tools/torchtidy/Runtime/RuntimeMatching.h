//===--- RuntimeMatching.h - Static findings against runtime events -*- C++
//-*-===//
//
// Which runtime event confirms which static finding: the event kind the
// check predicts, hit at the finding's line by a frame of the program's own
// code (an event's user frames include the callers of the op's caller, so a
// finding at a helper's call site is confirmed by an event inside it).
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_TOOLS_TORCHTIDY_RUNTIMEMATCHING_H
#define TORCHTIDY_TOOLS_TORCHTIDY_RUNTIMEMATCHING_H

#include "RuntimeReport.h"
#include "StaticFindings.h"

#include "llvm/ADT/ArrayRef.h"

#include <optional>

namespace torchtidy {

/// The runtime event kind that shows a check's finding happening, if any:
/// mixed_device for the two device-mix checks, graph_growth, sync,
/// non_blocking_unpinned, repeated_transfer. Checks about structure or style
/// (an unregistered member, a hardcoded device) have none.
std::optional<llvm::StringRef> runtimeEventKindOf(llvm::StringRef Check);

/// The event that confirms Finding, or null. A sync confirms
/// libtorch-host-sync-in-loop only when it was hit more than once: the check
/// is about a sync in every iteration.
const RuntimeEvent *findConfirmingEvent(const StaticFinding &Finding,
                                        llvm::ArrayRef<RuntimeEvent> Events);

/// Whether Event is something the static checks should have reported and
/// did not: no finding of its kind at any of its user frames. Single syncs
/// are not (a final `loss.item()` is fine).
bool isStaticMiss(const RuntimeEvent &Event,
                  llvm::ArrayRef<StaticFinding> Findings);

} // namespace torchtidy

#endif // TORCHTIDY_TOOLS_TORCHTIDY_RUNTIMEMATCHING_H
