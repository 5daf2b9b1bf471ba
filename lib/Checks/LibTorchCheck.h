//===--- LibTorchCheck.h - Base of every libtorch check ---------*- C++ -*-===//
//
// What all libtorch checks share: LibTorch's C++ API is C++ only.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_CHECKS_LIBTORCHCHECK_H
#define TORCHTIDY_CHECKS_LIBTORCHCHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace torchtidy {

class LibTorchCheck : public clang::tidy::ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;

  bool isLanguageVersionSupported(
      const clang::LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
};

} // namespace torchtidy

#endif // TORCHTIDY_CHECKS_LIBTORCHCHECK_H
