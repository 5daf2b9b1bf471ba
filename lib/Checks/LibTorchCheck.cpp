//===--- LibTorchCheck.cpp - Base of every libtorch check -----------------===//

#include "Checks/LibTorchCheck.h"
#include "Analysis/ProjectFacts.h"
#include "Analysis/UnitAnalysis.h"

#include "llvm/ADT/StringSet.h"

#include <mutex>

using namespace clang;

namespace torchtidy {

LibTorchCheck::LibTorchCheck(llvm::StringRef Name,
                             tidy::ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      ProjectFactsIndex(Options.getLocalOrGlobal("ProjectFacts", "")) {}

void LibTorchCheck::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "ProjectFacts", ProjectFactsIndex);
}

void LibTorchCheck::onStartOfTranslationUnit() {
  if (ProjectFactsIndex.empty())
    return;
  std::string Error;
  const ProjectFacts *Facts = projectFactsIndex(ProjectFactsIndex, Error);
  if (!Facts) {
    // Every check reads the option: the first one to meet a bad index says
    // so, once.
    static std::mutex Lock;
    static llvm::StringSet<> Reported;
    std::lock_guard<std::mutex> Guard(Lock);
    if (Reported.insert(ProjectFactsIndex).second)
      configurationDiag("cannot use the project facts: %0; what other files "
                        "define stays unknown",
                        DiagnosticIDs::Error)
          << Error;
  }
  useProjectFacts(Facts);
}

} // namespace torchtidy
