//===--- TransferInDatasetCheck.h - libtorch-transfer-in-dataset -*- C++
//-*-===//
//
// A device transfer inside a Dataset's get()/get_batch() or a transform's
// apply()/apply_batch(). Loading runs per example, often on data-loader
// worker threads; moving there means one small host-to-device copy per
// example (and CUDA work from worker threads) instead of one per batch in
// the training loop.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_CHECKS_TRANSFERINDATASETCHECK_H
#define TORCHTIDY_CHECKS_TRANSFERINDATASETCHECK_H

#include "Checks/LibTorchCheck.h"

namespace torchtidy {

class TransferInDatasetCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  /// Forgets the analysis' results, as the device-flow checks do: the next
  /// unit's AST is another.
};

} // namespace torchtidy

#endif // TORCHTIDY_CHECKS_TRANSFERINDATASETCHECK_H
