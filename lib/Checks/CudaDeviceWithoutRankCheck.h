//===--- CudaDeviceWithoutRankCheck.h - cuda-device-without-rank -*- C++
//-*-===//
//
// In a program that runs one process per GPU (it creates a c10d process
// group, or reads its rank), a CUDA device spelled without the process's
// own index (`torch::kCUDA`, `"cuda"`, `.cuda()`) is the current CUDA
// device: GPU 0 in every process, unless the program sets the current
// device from its rank. Every process then trains on GPU 0 (NCCL refuses
// two ranks on one GPU; other backends share it and run out of memory).
// The source article: each process binds to one GPU.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_CHECKS_CUDADEVICEWITHOUTRANKCHECK_H
#define TORCHTIDY_CHECKS_CUDADEVICEWITHOUTRANKCHECK_H

#include "Checks/LibTorchCheck.h"

#include <vector>

namespace torchtidy {

class CudaDeviceWithoutRankCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  /// A CUDA device spelled without the process's index.
  struct Site {
    clang::SourceRange Replaced; ///< What the fix-it replaces.
    std::string Text;            ///< As written: "torch::kCUDA", ".cuda()".
    /// The replacement, with `%rank` for the local rank's variable.
    std::string Replacement;
    bool FixedIndex = false;
    bool CudaCall = false;
    bool InMacro = false;
  };
  /// A variable holding the process's local rank, where it is visible.
  struct LocalRank {
    std::string Name;
    clang::SourceLocation Declared;
    clang::SourceRange Scope; ///< Its function's body; invalid: the file.
  };
  void noteDistributed(clang::SourceLocation Loc, llvm::StringRef What);

  // Sites and facts are judged at the end of the translation unit: a
  // process group created or a current device set after a site counts too.
  std::vector<Site> Sites;
  std::vector<LocalRank> LocalRanks;
  /// Where the program shows it runs one process per rank, and how.
  clang::SourceLocation DistributedAt;
  std::string DistributedBy;
  /// The program sets the current CUDA device from something computed.
  bool SetsCurrentDevice = false;
  const clang::SourceManager *Sources = nullptr;
};

} // namespace torchtidy

#endif // TORCHTIDY_CHECKS_CUDADEVICEWITHOUTRANKCHECK_H
