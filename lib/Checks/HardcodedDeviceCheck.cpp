//===--- HardcodedDeviceCheck.cpp - libtorch-hardcoded-device -------------===//

#include "Checks/HardcodedDeviceCheck.h"
#include "Checks/SpelledDevice.h"
#include "Model/TorchApi.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {
namespace {

bool returnsDevice(ASTContext &Ctx, DynTypedNode Node);

/// Whether the expression at Node is (part of) the definition of a device
/// variable, or what a device-returning function returns: the one place a
/// program is allowed to name its device. An in-class initializer has two
/// parents (the field, and each constructor that uses it); any will do.
bool definesDevice(ASTContext &Ctx, DynTypedNode Node) {
  for (DynTypedNode Parent : Ctx.getParents(Node)) {
    if (const auto *Op = Parent.get<CXXOperatorCallExpr>();
        Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
        isDeviceSpecType(Op->getArg(0)->getType()) &&
        Node.get<Expr>() != Op->getArg(0))
      return true;
    if (Parent.get<Expr>()) {
      if (definesDevice(Ctx, Parent))
        return true;
      continue;
    }
    if (const auto *Var = Parent.get<VarDecl>())
      return isDeviceSpecType(Var->getType());
    if (const auto *Field = Parent.get<FieldDecl>())
      return isDeviceSpecType(Field->getType());
    if (const auto *Init = Parent.get<CXXCtorInitializer>())
      return Init->getMember() &&
             isDeviceSpecType(Init->getMember()->getType());
    if (const auto *Ctor = Parent.get<CXXConstructorDecl>())
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->getInit() == Node.get<Expr>())
          return Init->getMember() &&
                 isDeviceSpecType(Init->getMember()->getType());
    if (Parent.get<ReturnStmt>() && returnsDevice(Ctx, Parent))
      return true;
  }
  return false;
}

/// Whether the function (or lambda) a return statement belongs to returns
/// a device.
bool returnsDevice(ASTContext &Ctx, DynTypedNode Node) {
  for (DynTypedNode Parent : Ctx.getParents(Node)) {
    if (const auto *Function = Parent.get<FunctionDecl>())
      return isDeviceSpecType(Function->getReturnType());
    if (const auto *Lambda = Parent.get<LambdaExpr>())
      return isDeviceSpecType(Lambda->getCallOperator()->getReturnType());
    if (returnsDevice(Ctx, Parent))
      return true;
  }
  return false;
}

} // namespace

void HardcodedDeviceCheck::registerMatchers(MatchFinder *Finder) {
  addSpelledDeviceMatchers(Finder, this);
}

void HardcodedDeviceCheck::check(const MatchFinder::MatchResult &Result) {
  std::optional<SpelledDevice> Device = spelledDeviceIn(Result);
  if (!Device || Device->Type == "cpu")
    return;
  if (Device->IsMigrationCall) {
    const auto *Call = Result.Nodes.getNodeAs<CallExpr>("device-call");
    diag(Call->getExprLoc(),
         "'.cuda()' hardcodes the device; use '.to(device)' with the "
         "program's one 'torch::Device'");
    return;
  }
  const DynTypedNode Node =
      Result.Nodes.getNodeAs<DeclRefExpr>("device-ref")
          ? DynTypedNode::create(
                *Result.Nodes.getNodeAs<DeclRefExpr>("device-ref"))
          : DynTypedNode::create(
                *Result.Nodes.getNodeAs<CXXConstructExpr>("device-construct"));
  if (definesDevice(*Result.Context, Node))
    return;
  llvm::StringRef Text =
      Lexer::getSourceText(CharSourceRange::getTokenRange(Device->Range),
                           *Result.SourceManager, getLangOpts());
  diag(Device->Range.getBegin(),
       "'%0' hardcodes the device here; define one 'torch::Device' (checking "
       "'torch::cuda::is_available()') and pass it")
      << Text;
}

} // namespace torchtidy
