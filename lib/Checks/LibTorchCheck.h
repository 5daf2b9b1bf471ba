//===--- LibTorchCheck.h - Base of every libtorch check ---------*- C++ -*-===//
//
// What all libtorch checks share: LibTorch's C++ API is C++ only, and the
// project's facts come from one option.
//
// Option ProjectFacts (global, or per check): an index that `torchtidy
// --index` wrote, for the front-ends that see one file at a time (the
// clang-tidy module; the compiler plugin sets it from its facts= argument).
// Given, what this file cannot see of the project's other files (a function
// they define, a module class whose constructor they define) is read from
// it, as in a torchtidy run over the whole project; not given, it is
// unknown. The torchtidy command gives the analysis its facts itself and
// leaves the option empty.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_CHECKS_LIBTORCHCHECK_H
#define TORCHTIDY_CHECKS_LIBTORCHCHECK_H

#include "clang-tidy/ClangTidyCheck.h"

#include <string>

namespace torchtidy {

class LibTorchCheck : public clang::tidy::ClangTidyCheck {
public:
  LibTorchCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context);

  bool isLanguageVersionSupported(
      const clang::LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;
  void onStartOfTranslationUnit() final;

private:
  std::string ProjectFactsIndex;
};

} // namespace torchtidy

#endif // TORCHTIDY_CHECKS_LIBTORCHCHECK_H
