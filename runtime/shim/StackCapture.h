//===- StackCapture.h - Raw call stacks and the modules they are in -*- C++
//-*-//
//
// A call site is its raw call stack: return addresses, captured with
// backtrace(). Symbolizing them is left to `torchtidy run`, which has LLVM's
// DWARF reader; the shim only turns each address into a module and an offset
// (the address minus the module's load bias), and only for new sites.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_RUNTIME_SHIM_STACKCAPTURE_H
#define TORCHTIDY_RUNTIME_SHIM_STACKCAPTURE_H

#include "Config.h"

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace torchtidy::rt {

struct RawStack {
  unsigned Size = 0;
  uintptr_t Pcs[kMaxStackDepth];

  uint64_t hash() const;
};

/// Finds the shim's and LibTorch's own code and warms backtrace() up (its
/// first call loads libgcc_s, which must not happen inside a signal handler
/// or under the site table's lock). Called once, at load.
void initStackCapture();

/// Captures the calling thread's stack, innermost first, leaving out the
/// frames of the shim and of LibTorch's own libraries above the first other
/// frame (and those of a backtrace() wrapper above the shim's): they are the
/// same for every op, and would use up \p Depth before the program's own
/// frames.
void captureStack(RawStack &Stack, unsigned Depth);

struct Frame {
  uint32_t Module = 0;
  uintptr_t Offset = 0;
};

/// The modules frames refer to, numbered in the order first seen.
class ModuleTable {
public:
  explicit ModuleTable(std::string ProgramPath)
      : ProgramPath(std::move(ProgramPath)) {}

  /// Module and offset of each return address in \p Pcs.
  std::vector<Frame> resolve(const std::vector<uintptr_t> &Pcs);

  /// The paths, indexed by module id.
  std::vector<std::string> paths();

private:
  uint32_t idFor(const std::string &Path);

  std::mutex Lock;
  std::string ProgramPath;
  std::vector<std::string> Paths;
  std::unordered_map<std::string, uint32_t> Ids;
};

} // namespace torchtidy::rt

#endif
