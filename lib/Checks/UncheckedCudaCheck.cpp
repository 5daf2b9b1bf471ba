//===--- UncheckedCudaCheck.cpp - libtorch-unchecked-cuda -----------------===//

#include "Checks/UncheckedCudaCheck.h"
#include "Checks/SpelledDevice.h"
#include "Model/TorchApi.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

void UncheckedCudaCheck::registerMatchers(MatchFinder *Finder) {
  addSpelledDeviceMatchers(Finder, this);
}

void UncheckedCudaCheck::check(const MatchFinder::MatchResult &Result) {
  Sources = Result.SourceManager;
  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("device-call"))
    if (std::optional<llvm::StringRef> Accelerator = queriedAccelerator(Call))
      Queried.insert(*Accelerator);
  std::optional<SpelledDevice> Device = spelledDeviceIn(Result);
  if (!Device || availabilityQueryFor(Device->Type).empty())
    return;
  SourceLocation Loc = Device->Range.getBegin();
  SourceLocation &First = FirstPlacement[Device->Type];
  if (First.isInvalid() || Sources->isBeforeInTranslationUnit(Loc, First))
    First = Loc;
}

void UncheckedCudaCheck::onEndOfTranslationUnit() {
  std::vector<std::pair<SourceLocation, llvm::StringRef>> Unchecked;
  for (const auto &Placement : FirstPlacement)
    if (!Queried.contains(Placement.getKey()))
      Unchecked.push_back({Placement.getValue(), Placement.getKey()});
  // In source order, not the map's.
  llvm::sort(Unchecked, [&](const auto &A, const auto &B) {
    return Sources->isBeforeInTranslationUnit(A.first, B.first);
  });
  for (const auto &[Loc, Accelerator] : Unchecked)
    diag(Loc, "code here places data on %0, but this file never checks "
              "'%1'; on a machine without a usable GPU the program fails "
              "instead of running on the CPU")
        << Accelerator.upper() << availabilityQueryFor(Accelerator);
  FirstPlacement.clear();
  Queried.clear();
  Sources = nullptr;
}

} // namespace torchtidy
