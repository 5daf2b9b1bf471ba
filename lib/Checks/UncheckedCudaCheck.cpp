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
    if (isCudaAvailabilityQuery(Call))
      ChecksAvailability = true;
  std::optional<SpelledDevice> Device = spelledDeviceIn(Result);
  if (!Device || Device->Type != "cuda")
    return;
  SourceLocation Loc = Device->Range.getBegin();
  if (FirstPlacement.isInvalid() ||
      Sources->isBeforeInTranslationUnit(Loc, FirstPlacement))
    FirstPlacement = Loc;
}

void UncheckedCudaCheck::onEndOfTranslationUnit() {
  if (FirstPlacement.isValid() && !ChecksAvailability)
    diag(FirstPlacement,
         "code here places data on CUDA, but this file never checks "
         "'torch::cuda::is_available()'; on a machine without a usable GPU "
         "the program fails instead of running on the CPU");
  FirstPlacement = SourceLocation();
  ChecksAvailability = false;
  Sources = nullptr;
}

} // namespace torchtidy
