//===--- UserCodeScope.h - Traverse only the user's code --------*- C++ -*-===//
//
// Findings are only ever reported outside system headers, yet a LibTorch TU
// is mostly LibTorch: walking its whole AST is what made clang-tidy-19 three
// times slower than the compiler. Like clangd, the front-ends that own their
// AST consumer limit the traversal to the top-level declarations parsed from
// non-system files. clang-tidy users get clang-tidy's own traversal.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_FRONTEND_USERCODESCOPE_H
#define TORCHTIDY_FRONTEND_USERCODESCOPE_H

#include "clang/Frontend/MultiplexConsumer.h"

#include <memory>
#include <vector>

namespace clang {
class Decl;
class SourceManager;
} // namespace clang

namespace torchtidy {

/// Forwards everything to the wrapped consumers, but sets the AST's
/// traversal scope to the user's top-level declarations before they see the
/// translation unit. Declarations loaded from a precompiled header are not
/// parsed in this TU and are left out, as clangd leaves out its preamble.
class UserCodeScopeConsumer : public clang::MultiplexConsumer {
public:
  UserCodeScopeConsumer(const clang::SourceManager &Sources,
                        std::unique_ptr<clang::ASTConsumer> Checks);

  bool HandleTopLevelDecl(clang::DeclGroupRef Group) override;
  void HandleTranslationUnit(clang::ASTContext &Context) override;

private:
  const clang::SourceManager &Sources;
  std::vector<clang::Decl *> UserDecls;
};

} // namespace torchtidy

#endif // TORCHTIDY_FRONTEND_USERCODESCOPE_H
