//===--- ReplayCase.h - The pattern a static finding replays as -*- C++ -*-===//
//
// torchtidy replay runs each flagged pattern alone through torchtidy-replay:
// a device mix as the flagged op with one operand on the accelerator and one
// on the host, an accumulation as a small training loop. This picks the
// pattern and, for a device mix, the op.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_TOOLS_TORCHTIDY_REPLAYCASE_H
#define TORCHTIDY_TOOLS_TORCHTIDY_REPLAYCASE_H

#include "StaticFindings.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace torchtidy {

struct ReplayCase {
  enum Kind { MixedDevice, Accumulation } CaseKind;
  /// MixedDevice: the LibTorch op to run, one torchtidy-replay knows.
  std::string Op;
  /// Why this op: "named in the finding", "called on line N", or, when
  /// nothing names a known op, that any op taking two tensors shows the mix.
  std::string OpSource;
};

/// The case for Finding, or none for checks no small program can show (a
/// host sync, a hardcoded device). SourceLine is the text of the finding's
/// line; KnownOps what torchtidy-replay can run (--list-ops).
std::optional<ReplayCase> replayCaseOf(const StaticFinding &Finding,
                                       llvm::StringRef SourceLine,
                                       llvm::ArrayRef<std::string> KnownOps);

} // namespace torchtidy

#endif // TORCHTIDY_TOOLS_TORCHTIDY_REPLAYCASE_H
