//===- SiteTable.h - Events counted per call site ---------------*- C++ -*-===//
//
// A repeated event is a counter, not a log entry: the table holds one entry
// per (kind, op, raw call stack), with the operands of its first occurrence,
// and at most MaxSites of them; events at further sites are only counted as
// dropped. Thread-safe: data-loader worker threads run ops too.
//
// The autograd depths of add-family ops are kept per site the same way, in a
// separate bounded set of candidates, until one has grown in enough
// iterations to be a graph_growth event; so are the host data each
// host-to-device copy site has copied, until one copies the same data again
// (a repeated_transfer event).
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_RUNTIME_SHIM_SITETABLE_H
#define TORCHTIDY_RUNTIME_SHIM_SITETABLE_H

#include "Operand.h"
#include "StackCapture.h"

#include <c10/core/Device.h>
#include <c10/core/StorageImpl.h>
#include <c10/util/FunctionRef.h>
#include <c10/util/intrusive_ptr.h>

#include <array>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace torchtidy::rt {

enum class EventKind : uint8_t {
  MixedDevice,
  Sync,
  NonBlockingUnpinned,
  GraphGrowth,
  RepeatedTransfer,
};
constexpr size_t kEventKinds = 5;
static_assert(static_cast<size_t>(EventKind::RepeatedTransfer) + 1 ==
                  kEventKinds,
              "kEventKinds counts the kinds");

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

/// At most this many distinct host tensors are remembered per copy site: a
/// site inside Module::to or a replication loop copies every parameter.
constexpr size_t kMaxCopiedSources = 64;

/// Host data a copy site has copied to a device: its storage, held weakly (a
/// storage freed and another allocated at its address is other data; a weak
/// reference keeps the program's memory free), the view into it, the device
/// it went to and its version counter at that copy.
struct CopiedSource {
  c10::weak_intrusive_ptr<c10::StorageImpl> Storage;
  int64_t Offset = 0;
  std::vector<int64_t> Sizes, Strides;
  c10::Device To{c10::DeviceType::CPU};
  int64_t Version = 0;
};

/// A host-to-device copy as the repeated_transfer rule sees it.
struct HostCopy {
  const at::Tensor &Source;
  c10::Device To;
  /// The source's version counter; none for an inference tensor, which has
  /// none (its changes cannot be seen).
  std::optional<int64_t> Version;
  /// A parameter (a leaf that requires grad): the optimizer's in-place
  /// updates do not make copying it again in every iteration necessary.
  bool IsParameter = false;
};

struct Site {
  EventKind Kind;
  std::string Op;
  std::vector<uintptr_t> Pcs; // the raw stack, innermost first
  /// For a graph_growth site, the number of growths; for a repeated_transfer
  /// site, the number of copies of data the site had copied before.
  uint64_t Count = 0;
  std::vector<Operand> Operands;
  std::vector<Frame> Frames; // resolved once the site is reported
  GrowthStats Growth;
  std::vector<CopiedSource> CopiedSources; // repeated_transfer candidates
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

  /// Notes the host-to-device \p Copy by \p Op at \p Stack. True when the
  /// site has just become a repeated_transfer event: it copied the same host
  /// data to the same device again, unchanged since (or a parameter).
  bool noteHostCopy(const char *Op, const RawStack &Stack, const HostCopy &Copy,
                    OperandsFn Operands);

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
  /// The candidate site of \p Kind (graph_growth, repeated_transfer) at
  /// \p Stack, made on first sight while there is room; null when there is
  /// none. \p IsNew: it was made now.
  Site *candidate(EventKind Kind, const char *Op, const RawStack &Stack,
                  OperandsFn Operands, bool &IsNew);
  /// Reports the candidate \p Entry, which has become an event; false when
  /// the table is full (the event is counted as dropped).
  bool promote(Site &Entry);
  static bool lock(std::unique_lock<std::mutex> &Guard, bool TryOnly);

  std::mutex Lock;
  const uint64_t MaxSites;
  ModuleTable &Modules;
  std::deque<Site> Sites; // stable addresses: entries are never removed
  std::unordered_multimap<uint64_t, uint32_t> Index;
  std::vector<uint32_t> ReportOrder;
  /// Unreported candidate sites, per kind.
  std::array<uint64_t, kEventKinds> Candidates{};
  uint64_t DroppedEvents = 0;
};

} // namespace torchtidy::rt

#endif
