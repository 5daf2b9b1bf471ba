//===--- HardcodedDeviceCheck.cpp - libtorch-hardcoded-device -------------===//

#include "Checks/HardcodedDeviceCheck.h"
#include "Analysis/FunctionFacts.h"
#include "Checks/SpelledDevice.h"
#include "Model/TorchApi.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

/// The values a device-returning function returns (not those of lambdas
/// inside it, which are functions of their own).
static void collectReturns(const Stmt *S, std::vector<SourceRange> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *Return = dyn_cast<ReturnStmt>(S))
    if (const Expr *Value = Return->getRetValue())
      Out.push_back(Value->getSourceRange());
  for (const Stmt *Child : S->children())
    collectReturns(Child, Out);
}

void HardcodedDeviceCheck::registerMatchers(MatchFinder *Finder) {
  addSpelledDeviceMatchers(Finder, this);
  auto InUserCode = unless(isExpansionInSystemHeader());
  Finder->addMatcher(varDecl(InUserCode, hasInitializer(expr())).bind("var"),
                     this);
  Finder->addMatcher(
      fieldDecl(InUserCode, hasInClassInitializer(expr())).bind("field"), this);
  Finder->addMatcher(functionDecl(InUserCode, isDefinition()).bind("function"),
                     this);
  // `device_type = torch::kCUDA;`: a DeviceType is an enum, assigned by the
  // built-in operator, not by a Device's operator=.
  Finder->addMatcher(
      binaryOperator(InUserCode, hasOperatorName("=")).bind("assign"), this);
}

void HardcodedDeviceCheck::check(const MatchFinder::MatchResult &Result) {
  Sources = Result.SourceManager;
  if (const auto *Var = Result.Nodes.getNodeAs<VarDecl>("var")) {
    // hasInitializer matches every declaration of a variable that one of
    // them initialises: a static data member's declaration in its class
    // has none itself (its definition outside the class does).
    if (const Expr *Init = Var->getInit();
        Init && isDeviceSpecType(Var->getType()))
      DeviceDefinitions.push_back(Init->getSourceRange());
    return;
  }
  if (const auto *Field = Result.Nodes.getNodeAs<FieldDecl>("field")) {
    if (isDeviceSpecType(Field->getType()))
      DeviceDefinitions.push_back(
          Field->getInClassInitializer()->getSourceRange());
    return;
  }
  if (const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("function")) {
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Function))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->isWritten() && Init->getMember() &&
            isDeviceSpecType(Init->getMember()->getType()))
          DeviceDefinitions.push_back(Init->getInit()->getSourceRange());
    if (isDeviceSpecType(Function->getReturnType()))
      collectReturns(Function->getBody(), DeviceDefinitions);
    return;
  }
  if (const auto *Assign = Result.Nodes.getNodeAs<BinaryOperator>("assign")) {
    if (isDeviceSpecType(Assign->getLHS()->getType()))
      DeviceDefinitions.push_back(Assign->getRHS()->getSourceRange());
    return;
  }
  if (const auto *Op =
          Result.Nodes.getNodeAs<CXXOperatorCallExpr>("device-call");
      Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
      isDeviceSpecType(Op->getArg(0)->getType()))
    DeviceDefinitions.push_back(Op->getArg(1)->getSourceRange());

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
  Literals.push_back(
      {Device->Range, Device->Type,
       Lexer::getSourceText(CharSourceRange::getTokenRange(Device->Range),
                            *Result.SourceManager, getLangOpts())
           .str()});
}

void HardcodedDeviceCheck::onEndOfTranslationUnit() {
  for (const Literal &Found : Literals) {
    SourceLocation Loc = Found.Range.getBegin();
    if (llvm::any_of(DeviceDefinitions, [&](SourceRange Definition) {
          return rangeContains(*Sources, Definition, Loc);
        }))
      continue;
    // The availability question of the accelerator it names; CUDA's for
    // the others (ROCm's hip builds answer CUDA's; meta has none).
    llvm::StringRef Query = availabilityQueryFor(Found.DeviceType);
    diag(Loc, "'%0' hardcodes the device here; define one 'torch::Device' "
              "(checking '%1') and pass it")
        << Found.Text << (Query.empty() ? availabilityQueryFor("cuda") : Query);
  }
  Literals.clear();
  DeviceDefinitions.clear();
  Sources = nullptr;
}

} // namespace torchtidy
