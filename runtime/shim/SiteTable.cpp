//===- SiteTable.cpp - Events counted per call site -----------------------===//

#include "SiteTable.h"

#include <algorithm>
#include <time.h>

namespace torchtidy::rt {

const char *eventKindName(EventKind Kind) {
  switch (Kind) {
  case EventKind::MixedDevice:
    return "mixed_device";
  case EventKind::Sync:
    return "sync";
  case EventKind::NonBlockingUnpinned:
    return "non_blocking_unpinned";
  case EventKind::GraphGrowth:
    return "graph_growth";
  }
  return "unknown";
}

namespace {
uint64_t siteHash(EventKind Kind, const char *Op, const RawStack &Stack) {
  uint64_t Hash = Stack.hash() ^ (static_cast<uint64_t>(Kind) << 56);
  for (const char *C = Op; *C; ++C) {
    Hash ^= static_cast<unsigned char>(*C);
    Hash *= 1099511628211ULL;
  }
  return Hash;
}
} // namespace

bool SiteTable::lock(std::unique_lock<std::mutex> &Guard, bool TryOnly) {
  if (!TryOnly) {
    Guard.lock();
    return true;
  }
  // Another thread may be in the middle of recording: give it a moment. The
  // interrupted thread itself may hold the lock, hence the limit.
  for (int Attempt = 0; Attempt < 200; ++Attempt) {
    if (Guard.try_lock())
      return true;
    struct timespec Pause = {0, 1000000};
    nanosleep(&Pause, nullptr);
  }
  return false;
}

Site *SiteTable::find(EventKind Kind, const char *Op, const RawStack &Stack,
                      uint64_t Hash) {
  auto Range = Index.equal_range(Hash);
  for (auto It = Range.first; It != Range.second; ++It) {
    Site &Entry = Sites[It->second];
    if (Entry.Kind == Kind && Entry.Op == Op &&
        std::equal(Entry.Pcs.begin(), Entry.Pcs.end(), Stack.Pcs,
                   Stack.Pcs + Stack.Size))
      return &Entry;
  }
  return nullptr;
}

uint32_t SiteTable::insert(EventKind Kind, const char *Op,
                           const RawStack &Stack, uint64_t Hash,
                           OperandsFn Operands) {
  auto Position = static_cast<uint32_t>(Sites.size());
  Site &Entry = Sites.emplace_back();
  Entry.Kind = Kind;
  Entry.Op = Op;
  Entry.Pcs.assign(Stack.Pcs, Stack.Pcs + Stack.Size);
  Entry.Operands = Operands();
  Entry.Position = Position;
  Index.emplace(Hash, Position);
  return Position;
}

void SiteTable::report(Site &Entry) {
  Entry.Reported = true;
  Entry.Frames = Modules.resolve(Entry.Pcs);
  ReportOrder.push_back(Entry.Position);
}

bool SiteTable::record(EventKind Kind, const char *Op, const RawStack &Stack,
                       OperandsFn Operands) {
  uint64_t Hash = siteHash(Kind, Op, Stack);
  std::lock_guard<std::mutex> Guard(Lock);
  if (Site *Entry = find(Kind, Op, Stack, Hash)) {
    ++Entry->Count;
    return false;
  }
  if (ReportOrder.size() >= MaxSites) {
    ++DroppedEvents;
    return false;
  }
  Site &Entry = Sites[insert(Kind, Op, Stack, Hash, Operands)];
  Entry.Count = 1;
  report(Entry);
  return true;
}

bool SiteTable::noteDepth(const char *Op, const RawStack &Stack, uint64_t Depth,
                          uint64_t Epoch, OperandsFn Operands) {
  uint64_t Hash = siteHash(EventKind::GraphGrowth, Op, Stack);
  std::lock_guard<std::mutex> Guard(Lock);
  Site *Entry = find(EventKind::GraphGrowth, Op, Stack, Hash);
  if (!Entry) {
    // Every add-family call site of a model is a candidate: bounded apart
    // from the events, so that candidates never crowd events out.
    if (Candidates >= MaxSites)
      return false;
    ++Candidates;
    Entry = &Sites[insert(EventKind::GraphGrowth, Op, Stack, Hash, Operands)];
    GrowthStats &Growth = Entry->Growth;
    Entry->Count = 1;
    Growth.MaxDepth = Growth.FirstDepth = Growth.LastDepth = Depth;
    Growth.FirstEpoch = Growth.LastEpoch = Epoch;
    Growth.GrowthIterations = 1;
    return false;
  }
  GrowthStats &Growth = Entry->Growth;
  if (Depth <= Growth.MaxDepth)
    return false;
  ++Entry->Count;
  Growth.MaxDepth = Growth.LastDepth = Depth;
  if (Epoch != Growth.LastEpoch)
    ++Growth.GrowthIterations;
  Growth.LastEpoch = Epoch;
  if (Entry->Reported || Growth.GrowthIterations < kGrowthIterations)
    return false;
  if (ReportOrder.size() >= MaxSites) {
    ++DroppedEvents;
    return false;
  }
  --Candidates;
  report(*Entry);
  return true;
}

} // namespace torchtidy::rt
