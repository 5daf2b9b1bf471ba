//===--- AnalysisContext.cpp - Per-TU cache of device-flow results --------===//

#include "Analysis/AnalysisContext.h"
#include "Analysis/DeviceOwners.h"
#include "Analysis/ModuleMembers.h"
#include "Analysis/ProjectFacts.h"

#include "llvm/ADT/DenseMap.h"
#include <memory>

namespace torchtidy {
namespace {
using CacheKey =
    std::pair<const clang::ASTContext *, const clang::FunctionDecl *>;
// One translation unit at a time per thread (torchtidy -j runs one per
// worker thread).
llvm::DenseMap<CacheKey, std::unique_ptr<DeviceFlowResult>> &cache() {
  thread_local llvm::DenseMap<CacheKey, std::unique_ptr<DeviceFlowResult>>
      Results;
  return Results;
}

struct SummaryCache {
  // Null while the summary is being computed.
  llvm::DenseMap<CacheKey, std::unique_ptr<FunctionSummary>> Summaries;
  unsigned Nesting = 0;
};
SummaryCache &summaries() {
  thread_local SummaryCache Cache;
  return Cache;
}
} // namespace

const DeviceFlowResult &deviceFlowOf(const clang::FunctionDecl *Function,
                                     clang::ASTContext &Ctx) {
  std::unique_ptr<DeviceFlowResult> &Slot = cache()[{&Ctx, Function}];
  if (!Slot)
    Slot = std::make_unique<DeviceFlowResult>(analyzeDeviceFlow(Function, Ctx));
  return *Slot;
}

const FunctionSummary *
deviceFlowSummaryOf(const clang::FunctionDecl *Definition,
                    clang::ASTContext &Ctx) {
  SummaryCache &Cache = summaries();
  CacheKey Key{&Ctx, Definition};
  auto Found = Cache.Summaries.find(Key);
  if (Found != Cache.Summaries.end())
    return Found->second.get();
  if (Cache.Nesting >= MaxSummaryNesting)
    return nullptr;
  Cache.Summaries[Key] = nullptr; // In progress: recursion sees null.
  ++Cache.Nesting;
  auto Summary =
      std::make_unique<FunctionSummary>(summarizeDeviceFlow(Definition, Ctx));
  --Cache.Nesting;
  // The map may have grown while the callee's own callees were summarised:
  // look the slot up again.
  std::unique_ptr<FunctionSummary> &Slot = Cache.Summaries[Key];
  Slot = std::move(Summary);
  return Slot.get();
}

void forgetDeviceFlowResults() {
  cache().clear();
  summaries().Summaries.clear();
  forgetModuleMembers();
  forgetDeviceOwners();
  forgetProjectSummaries();
}

} // namespace torchtidy
