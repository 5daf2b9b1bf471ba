//===--- UserCodeScope.cpp - Traverse only the user's code ----------------===//

#include "Frontend/UserCodeScope.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclGroup.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace torchtidy {

static std::vector<std::unique_ptr<ASTConsumer>>
single(std::unique_ptr<ASTConsumer> Consumer) {
  std::vector<std::unique_ptr<ASTConsumer>> Consumers;
  Consumers.push_back(std::move(Consumer));
  return Consumers;
}

UserCodeScopeConsumer::UserCodeScopeConsumer(
    const SourceManager &Sources, std::unique_ptr<ASTConsumer> Checks)
    : MultiplexConsumer(single(std::move(Checks))), Sources(Sources) {}

/// Sema hands each instantiated function template to the consumer as a
/// top-level declaration too; it is reached through its template already.
static bool isInstantiation(const Decl *D) {
  if (const auto *Function = dyn_cast<FunctionDecl>(D))
    return Function->isTemplateInstantiation();
  return false;
}

bool UserCodeScopeConsumer::HandleTopLevelDecl(DeclGroupRef Group) {
  for (Decl *D : Group) {
    SourceLocation Loc = Sources.getExpansionLoc(D->getLocation());
    if (Loc.isValid() && !Sources.isInSystemHeader(Loc) && !isInstantiation(D))
      UserDecls.push_back(D);
  }
  return MultiplexConsumer::HandleTopLevelDecl(Group);
}

void UserCodeScopeConsumer::HandleTranslationUnit(ASTContext &Context) {
  Context.setTraversalScope(UserDecls);
  MultiplexConsumer::HandleTranslationUnit(Context);
}

} // namespace torchtidy
