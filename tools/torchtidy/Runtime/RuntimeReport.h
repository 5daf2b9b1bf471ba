//===--- RuntimeReport.h - The runtime shim's report, symbolized -*- C++
//-*-===//
//
// Reads the JSON report libtorchtidy_rt.so writes (docs/runtime.md) and turns
// its raw frames (module + offset) into source locations with LLVM's DWARF
// reader, as sanitizers do: the shim links LibTorch only and never
// symbolizes.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_TOOLS_TORCHTIDY_RUNTIMEREPORT_H
#define TORCHTIDY_TOOLS_TORCHTIDY_RUNTIMEREPORT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <string>
#include <vector>

namespace torchtidy {

/// A frame of the program's own code.
struct SourceFrame {
  std::string Function;
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
};

/// One call site the shim recorded, with how often it was hit.
struct RuntimeEvent {
  std::string Kind; // mixed_device, sync, non_blocking_unpinned, graph_growth
  std::string Op;   // aten::mul
  uint64_t Count = 0;
  std::vector<std::string> Devices; // of the operands, in order
  /// Frames in the program's own code, innermost first: the first one is
  /// where the program called LibTorch.
  std::vector<SourceFrame> UserFrames;
  /// graph_growth: the autograd depth added per iteration.
  double GrowthPerIteration = 0;
};

struct RuntimeReport {
  std::string Path;
  /// How the program ended: "exit 0", "uncaught exception: ...",
  /// "signal 6", "running".
  std::string End;
  std::vector<RuntimeEvent> Events;
  uint64_t DroppedEvents = 0;
  std::vector<std::string> Problems;
};

/// Adds "user_frames" and "location" to every event of a report that lacks
/// them, from its raw frames.
void symbolizeReport(llvm::json::Object &Report);

/// The report read from Path (for messages): checks its format, symbolizes
/// it in place where `torchtidy run` did not, and returns what it says.
llvm::Expected<RuntimeReport> interpretRuntimeReport(llvm::json::Object &Report,
                                                     llvm::StringRef Path);

/// Reads, then interprets, the report at Path.
llvm::Expected<RuntimeReport> loadRuntimeReport(llvm::StringRef Path);

/// Reads and parses a JSON file (the report, or static findings).
llvm::Expected<llvm::json::Value> readJsonFile(llvm::StringRef Path);

/// Writes Value to Path through a temporary file and a rename, so a reader
/// never sees half a file.
llvm::Error writeJsonFileAtomically(llvm::StringRef Path,
                                    const llvm::json::Value &Value);

/// "file:line" of a frame, or its function name when it has no line.
std::string describe(const SourceFrame &Frame);

} // namespace torchtidy

#endif // TORCHTIDY_TOOLS_TORCHTIDY_RUNTIMEREPORT_H
