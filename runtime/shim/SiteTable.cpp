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
  case EventKind::RepeatedTransfer:
    return "repeated_transfer";
  }
  return "unknown";
}

namespace {
bool isSameData(const CopiedSource &Copied, const HostCopy &Copy,
                c10::StorageImpl *Storage) {
  const at::Tensor &Source = Copy.Source;
  return !Copied.Storage.expired() &&
         Copied.Storage._unsafe_get_target() == Storage &&
         Copied.Offset == Source.storage_offset() && Copied.To == Copy.To &&
         Copied.Sizes == Source.sizes() && Copied.Strides == Source.strides();
}

CopiedSource rememberCopy(const HostCopy &Copy) {
  const at::Tensor &Source = Copy.Source;
  return CopiedSource{Source.storage().getWeakStorageImpl(),
                      Source.storage_offset(),
                      Source.sizes().vec(),
                      Source.strides().vec(),
                      Copy.To,
                      Copy.Version.value_or(0)};
}

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

Site *SiteTable::candidate(EventKind Kind, const char *Op,
                           const RawStack &Stack, OperandsFn Operands,
                           bool &IsNew) {
  uint64_t Hash = siteHash(Kind, Op, Stack);
  IsNew = false;
  if (Site *Entry = find(Kind, Op, Stack, Hash))
    return Entry;
  // Every add-family or copy call site of a model is a candidate: bounded
  // apart from the events, so that candidates never crowd events out.
  uint64_t &Count = Candidates[static_cast<size_t>(Kind)];
  if (Count >= MaxSites)
    return nullptr;
  ++Count;
  IsNew = true;
  return &Sites[insert(Kind, Op, Stack, Hash, Operands)];
}

bool SiteTable::promote(Site &Entry) {
  if (ReportOrder.size() >= MaxSites) {
    ++DroppedEvents;
    return false;
  }
  --Candidates[static_cast<size_t>(Entry.Kind)];
  report(Entry);
  return true;
}

bool SiteTable::noteDepth(const char *Op, const RawStack &Stack, uint64_t Depth,
                          uint64_t Epoch, OperandsFn Operands) {
  std::lock_guard<std::mutex> Guard(Lock);
  bool IsNew;
  Site *Entry = candidate(EventKind::GraphGrowth, Op, Stack, Operands, IsNew);
  if (!Entry)
    return false;
  GrowthStats &Growth = Entry->Growth;
  if (IsNew) {
    Entry->Count = 1;
    Growth.MaxDepth = Growth.FirstDepth = Growth.LastDepth = Depth;
    Growth.FirstEpoch = Growth.LastEpoch = Epoch;
    Growth.GrowthIterations = 1;
    return false;
  }
  if (Depth <= Growth.MaxDepth)
    return false;
  ++Entry->Count;
  Growth.MaxDepth = Growth.LastDepth = Depth;
  if (Epoch != Growth.LastEpoch)
    ++Growth.GrowthIterations;
  Growth.LastEpoch = Epoch;
  if (Entry->Reported || Growth.GrowthIterations < kGrowthIterations)
    return false;
  return promote(*Entry);
}

bool SiteTable::noteHostCopy(const char *Op, const RawStack &Stack,
                             const HostCopy &Copy, OperandsFn Operands) {
  const at::Tensor &Source = Copy.Source;
  if (!Source.has_storage())
    return false;
  c10::StorageImpl *Storage = Source.storage().unsafeGetStorageImpl();
  std::lock_guard<std::mutex> Guard(Lock);
  bool IsNew;
  Site *Entry =
      candidate(EventKind::RepeatedTransfer, Op, Stack, Operands, IsNew);
  if (!Entry)
    return false;
  std::vector<CopiedSource> &Copied = Entry->CopiedSources;
  auto Earlier = std::find_if(Copied.begin(), Copied.end(),
                              [&](const CopiedSource &Candidate) {
                                return isSameData(Candidate, Copy, Storage);
                              });
  if (Earlier == Copied.end()) {
    // Forget what was freed, then remember this one while there is room.
    Copied.erase(std::remove_if(Copied.begin(), Copied.end(),
                                [](const CopiedSource &Candidate) {
                                  return Candidate.Storage.expired();
                                }),
                 Copied.end());
    if (Copied.size() < kMaxCopiedSources)
      Copied.push_back(rememberCopy(Copy));
    return false;
  }
  // Data written since its last copy (a staging buffer refilled in every
  // iteration) had to be copied again; an inference tensor's writes cannot
  // be seen.
  bool Unchanged = Copy.Version && *Copy.Version == Earlier->Version;
  Earlier->Version = Copy.Version.value_or(0);
  if (!Unchanged && !Copy.IsParameter)
    return false;
  ++Entry->Count;
  if (Entry->Reported)
    return false;
  return promote(*Entry);
}

} // namespace torchtidy::rt
