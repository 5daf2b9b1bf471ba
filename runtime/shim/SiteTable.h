//===- SiteTable.h - Events counted per call site ---------------*- C++ -*-===//
//
// A repeated event is a counter, not a log entry: the table holds one entry
// per (kind, op, raw call stack), with the operands of its first occurrence,
// and at most MaxSites of them; events at further sites are only counted as
// dropped. Thread-safe: data-loader worker threads run ops too.
//
// The autograd depths of add-family ops are kept per site the same way, in a
// separate bounded set of candidates, until one has grown in enough
// iterations to be a graph_growth event.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_RUNTIME_SHIM_SITETABLE_H
#define TORCHTIDY_RUNTIME_SHIM_SITETABLE_H

#include "Operand.h"
#include "StackCapture.h"

#include <c10/util/FunctionRef.h>

#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace torchtidy::rt {

enum class EventKind : uint8_t {
  MixedDevice,
  Sync,
  NonBlockingUnpinned,
  GraphGrowth,
};

/// The name of \p Kind in the report: "mixed_device", ...
const char *eventKindName(EventKind Kind);

/// A site becomes a graph_growth event once its autograd depth has grown in
/// this many different iterations: a residual loop grows many times inside
/// one forward pass, and never again.
constexpr uint64_t kGrowthIterations = 4;

struct GrowthStats {
  uint64_t MaxDepth = 0;
  uint64_t FirstDepth = 0, LastDepth = 0; // at the first and last growth
  uint64_t FirstEpoch = 0, LastEpoch = 0; // backward passes seen by then
  uint64_t GrowthIterations = 0;          // distinct epochs with a growth
};

struct Site {
  EventKind Kind;
  std::string Op;
  std::vector<uintptr_t> Pcs; // the raw stack, innermost first
  /// For a graph_growth site, the number of growths.
  uint64_t Count = 0;
  std::vector<Operand> Operands;
  std::vector<Frame> Frames; // resolved once the site is reported
  GrowthStats Growth;
  bool Reported = false;
  uint32_t Position = 0; // in the table
};

using OperandsFn = c10::function_ref<std::vector<Operand>()>;

class SiteTable {
public:
  SiteTable(uint64_t MaxSites, ModuleTable &Modules)
      : MaxSites(MaxSites), Modules(Modules) {}

  /// Counts one event of \p Kind by \p Op at \p Stack; \p Operands is called
  /// only for a new site. True when the site is new: the report is to be
  /// written now, for the program may die of what it just did.
  bool record(EventKind Kind, const char *Op, const RawStack &Stack,
              OperandsFn Operands);

  /// Notes that \p Op at \p Stack produced a result of autograd depth
  /// \p Depth after \p Epoch backward passes. True when the site has just
  /// become a graph_growth event.
  bool noteDepth(const char *Op, const RawStack &Stack, uint64_t Depth,
                 uint64_t Epoch, OperandsFn Operands);

  /// Calls \p Visit(const Site&) on each reported site, in the order they
  /// were first recorded, then returns the number of dropped events; the
  /// table is locked meanwhile. With \p TryOnly (in a signal handler, where
  /// the interrupted code may hold the lock) gives up after a while and
  /// returns false.
  template <typename Fn>
  bool visit(Fn &&Visit, uint64_t &Dropped, bool TryOnly = false) {
    std::unique_lock<std::mutex> Guard(Lock, std::defer_lock);
    if (!lock(Guard, TryOnly))
      return false;
    for (uint32_t Index : ReportOrder)
      Visit(static_cast<const Site &>(Sites[Index]));
    Dropped = DroppedEvents;
    return true;
  }

private:
  Site *find(EventKind Kind, const char *Op, const RawStack &Stack,
             uint64_t Hash);
  uint32_t insert(EventKind Kind, const char *Op, const RawStack &Stack,
                  uint64_t Hash, OperandsFn Operands);
  void report(Site &Entry);
  static bool lock(std::unique_lock<std::mutex> &Guard, bool TryOnly);

  std::mutex Lock;
  const uint64_t MaxSites;
  ModuleTable &Modules;
  std::deque<Site> Sites; // stable addresses: entries are never removed
  std::unordered_multimap<uint64_t, uint32_t> Index;
  std::vector<uint32_t> ReportOrder;
  uint64_t Candidates = 0; // unreported graph_growth sites
  uint64_t DroppedEvents = 0;
};

} // namespace torchtidy::rt

#endif
