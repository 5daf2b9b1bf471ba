//===--- AnalysisContext.cpp - Per-TU cache of device-flow results --------===//

#include "Analysis/AnalysisContext.h"

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
} // namespace

const DeviceFlowResult &deviceFlowOf(const clang::FunctionDecl *Function,
                                     clang::ASTContext &Ctx) {
  std::unique_ptr<DeviceFlowResult> &Slot = cache()[{&Ctx, Function}];
  if (!Slot)
    Slot = std::make_unique<DeviceFlowResult>(analyzeDeviceFlow(Function, Ctx));
  return *Slot;
}

void forgetDeviceFlowResults() { cache().clear(); }

} // namespace torchtidy
