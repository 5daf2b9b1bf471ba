//===--- UnregisteredModuleMemberCheck.cpp -
// libtorch-unregistered-module-member ===//

#include "Checks/UnregisteredModuleMemberCheck.h"
#include "Analysis/ModuleMembers.h"
#include "Model/TorchApi.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

void UnregisteredModuleMemberCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      cxxRecordDecl(isDefinition(), unless(isExpansionInSystemHeader()))
          .bind("class"),
      this);
  // `fc->weight = torch::zeros(...)`: a new, unregistered tensor in place of
  // the layer's registered one.
  Finder->addMatcher(
      cxxOperatorCallExpr(hasOverloadedOperatorName("="), argumentCountIs(2),
                          hasArgument(0, ignoringParenImpCasts(
                                             memberExpr().bind("member"))),
                          unless(isExpansionInSystemHeader()))
          .bind("rebinding"),
      this);
}

/// Whether Value is a call that may hand back the tensor written Operand,
/// given it as written: an in-place method or function (`copy_`,
/// `torch::nn::init::normal_`), or a function of the user's (a tensor
/// parameter, by value or by reference, is a handle to the same tensor).
static bool mayReturnItsOperand(const Expr *Value, llvm::StringRef Operand) {
  const auto *Call = dyn_cast<CallExpr>(ignoreValuePreserving(Value));
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee)
    return false;
  const ASTContext &Ctx = Callee->getASTContext();
  auto IsOperand = [&](const Expr *E) {
    return E && writtenText(E->getSourceRange(), Ctx) == Operand;
  };
  if (isInPlaceCall(Call))
    return IsOperand(callObject(Call)) ||
           llvm::any_of(Call->arguments(), IsOperand);
  return !isInLibTorchNamespace(Callee) &&
         llvm::any_of(Call->arguments(), IsOperand);
}

void UnregisteredModuleMemberCheck::reportRebinding(
    const CXXOperatorCallExpr *Assignment, const MemberExpr *Member,
    const SourceManager &Sources) {
  const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
  if (!Field || !isRegisteredLayerTensor(Field))
    return;
  const Expr *Value = Assignment->getArg(1);
  std::string Target = writtenText(Member->getSourceRange(),
                                   Field->getASTContext());
  // `w = load_into(w, v)`, `w = w.copy_(v)`: the value may be the registered
  // tensor itself, handed back.
  if (!Target.empty() && mayReturnItsOperand(Value, Target))
    return;
  if (Target.empty())
    Target = Field->getName().str();
  auto Diag = diag(Assignment->getOperatorLoc(),
                   "'%0' is registered by its layer; assigning a new tensor "
                   "to it leaves the registered one in "
                   "'parameters()' and 'to(device)', so the new one is never "
                   "trained or moved; copy the values in with "
                   "'%0.set_data(...)'")
              << Target;
  SourceLocation ValueEnd = Lexer::getLocForEndOfToken(
      Value->getEndLoc(), 0, Sources, getLangOpts());
  if (Member->getEndLoc().isMacroID() || Value->getBeginLoc().isMacroID() ||
      ValueEnd.isInvalid())
    return;
  SourceLocation TargetEnd = Lexer::getLocForEndOfToken(
      Member->getEndLoc(), 0, Sources, getLangOpts());
  Diag << FixItHint::CreateReplacement(
              CharSourceRange::getCharRange(TargetEnd, Value->getBeginLoc()),
              ".set_data(")
       << FixItHint::CreateInsertion(ValueEnd, ")");
}

void UnregisteredModuleMemberCheck::check(
    const MatchFinder::MatchResult &Result) {
  if (const auto *Assignment =
          Result.Nodes.getNodeAs<CXXOperatorCallExpr>("rebinding")) {
    reportRebinding(Assignment, Result.Nodes.getNodeAs<MemberExpr>("member"),
                    *Result.SourceManager);
    return;
  }
  const auto *Class = Result.Nodes.getNodeAs<CXXRecordDecl>("class");
  // Template patterns hold unresolved calls; their instantiations are read.
  if (!isModuleClass(Class) || Class->isDependentContext())
    return;
  // A constructor defined in another file may register anything: the
  // members are not judged from here (ModuleMembers.h).
  const ModuleMembers Members = collectModuleMembers(Class);
  const SourceManager &Sources = *Result.SourceManager;
  for (const auto &[Field, Use] : Members.Members) {
    // A tensor member is reported only when it is meant to be trained; a
    // constant kept on the host on purpose is not a bug.
    if (Use.Registered || Use.SetAt.isInvalid() ||
        (!Use.IsSubmodule && !Use.RequiresGrad))
      continue;
    // A submodule without weights has nothing to move or train: it matters
    // only when it behaves by mode (Dropout), and misses train()/eval().
    const CXXRecordDecl *Submodule = moduleClassOf(Field->getType());
    enum { Parameter, SubmoduleWithWeights, ModeDependentSubmodule } Kind;
    if (!Use.IsSubmodule)
      Kind = Parameter;
    else if (moduleHoldsParameters(Submodule))
      Kind = SubmoduleWithWeights;
    else if (moduleDependsOnTrainingMode(Submodule))
      Kind = ModeDependentSubmodule;
    else
      continue; // ReLU, MaxPool2d, a stateless module of the user's:
                // registering them changes nothing.
    if (!ReportedFields.insert(Field->getLocation().getRawEncoding()).second)
      continue;
    llvm::StringRef Register =
        Use.IsSubmodule ? "register_module" : "register_parameter";
    {
      auto Diag =
          diag(Use.SetAt,
               "%select{parameter|submodule|submodule}0 '%1' is never passed "
               "to '%2'; %select{'to(device)' will not move it and "
               "'parameters()' will not return it, so the optimizer never "
               "trains it|'to(device)' will not move it and 'parameters()' "
               "will not return its parameters, so the optimizer never trains "
               "them|'train()' and 'eval()' will not reach it, so it stays in "
               "training mode when the model is evaluated}0")
          << Kind << Field->getName() << Register;
      const Expr *Value = Use.SetValue;
      if (Value && !Value->getBeginLoc().isMacroID() &&
          !Value->getEndLoc().isMacroID()) {
        SourceLocation End = Lexer::getLocForEndOfToken(Value->getEndLoc(), 0,
                                                        Sources, getLangOpts());
        Diag << FixItHint::CreateInsertion(
                    Value->getBeginLoc(),
                    (Register + "(\"" + Field->getName() + "\", ").str())
             << FixItHint::CreateInsertion(End, ")");
      }
    }
    diag(Field->getLocation(), "'%0' is declared here", DiagnosticIDs::Note)
        << Field->getName();
  }
}

} // namespace torchtidy
