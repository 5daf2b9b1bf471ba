//===--- SpelledDevice.cpp - Devices written into the code ----------------===//

#include "Checks/SpelledDevice.h"
#include "Model/TorchApi.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

void addSpelledDeviceMatchers(MatchFinder *Finder,
                              MatchFinder::MatchCallback *Check) {
  auto InUserCode = unless(isExpansionInSystemHeader());
  Finder->addMatcher(
      declRefExpr(InUserCode, to(anyOf(enumConstantDecl(), varDecl())))
          .bind("device-ref"),
      Check);
  Finder->addMatcher(cxxConstructExpr(InUserCode).bind("device-construct"),
                     Check);
  Finder->addMatcher(callExpr(InUserCode).bind("device-call"), Check);
}

/// The string literal a c10::Device is constructed from, if any.
static const StringLiteral *deviceStringOf(const CXXConstructExpr *Construct) {
  if (!isDeviceSpecType(Construct->getType()) ||
      isTensorOptionsType(Construct->getType()) || Construct->getNumArgs() == 0)
    return nullptr;
  return writtenStringLiteral(Construct->getArg(0));
}

std::optional<SpelledDevice>
spelledDeviceIn(const MatchFinder::MatchResult &Result) {
  if (const auto *Ref = Result.Nodes.getNodeAs<DeclRefExpr>("device-ref"))
    if (std::optional<llvm::StringRef> Type = deviceTypeNamed(Ref->getDecl()))
      return SpelledDevice{Ref->getSourceRange(), *Type, false};
  if (const auto *Construct =
          Result.Nodes.getNodeAs<CXXConstructExpr>("device-construct"))
    if (const StringLiteral *String = deviceStringOf(Construct))
      if (std::optional<llvm::StringRef> Type = spelledDeviceType(String))
        return SpelledDevice{String->getSourceRange(), *Type, false};
  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("device-call"))
    // .cuda() (of a tensor or a module) is the one move off the host that
    // takes no device argument.
    if (movesToCurrentCudaDevice(Call))
      return SpelledDevice{Call->getSourceRange(), "cuda", true};
  return std::nullopt;
}

} // namespace torchtidy
