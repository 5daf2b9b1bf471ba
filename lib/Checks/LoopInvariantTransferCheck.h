//===--- LoopInvariantTransferCheck.h -
// libtorch-loop-invariant-transfer -*- C++ -*-===//
//
// A copy to a device of a tensor that is the same in every iteration of a
// loop (LoopInvariance.h): a variable or member the loop does not change,
// host memory a from_blob wraps again, a tensor built from constants, and
// any view or op of those. Moving it once before the loop gives the same
// tensor. Also such a tensor built from constants and copied in a function
// that runs in every iteration of its callers' loops, or in forward(). And
// a module on the host replicated by data_parallel in every iteration.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_CHECKS_LOOPINVARIANTTRANSFERCHECK_H
#define TORCHTIDY_CHECKS_LOOPINVARIANTTRANSFERCHECK_H

#include "Analysis/LoopInvariance.h"
#include "Checks/LibTorchCheck.h"

namespace torchtidy {

class LoopInvariantTransferCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void checkLoop(const clang::Stmt *Loop, const clang::ASTContext &Ctx);
  void checkFunction(const clang::FunctionDecl *Function,
                     const clang::SourceManager &SM);
  /// The finding at Loc, where What copies a tensor that is the same in
  /// every iteration, with its notes.
  void reportSameEveryIteration(clang::SourceLocation Loc, llvm::StringRef What,
                                const InvariantOrigin &Origin,
                                bool ToTheDevice);
  /// `data_parallel` over several devices of a module left on the host, in
  /// a loop: the module's parameters are the same in every iteration, and
  /// every call copies them to each device (DeviceFlow.h).
  void checkHostReplications(const clang::FunctionDecl *Function);
  /// A note at the call that builds the tensor again each time, if any.
  void reportRebuilt(const InvariantOrigin &Origin);
};

} // namespace torchtidy

#endif // TORCHTIDY_CHECKS_LOOPINVARIANTTRANSFERCHECK_H
