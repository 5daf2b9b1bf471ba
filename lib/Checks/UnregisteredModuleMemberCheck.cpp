//===--- UnregisteredModuleMemberCheck.cpp -
// libtorch-unregistered-module-member ===//

#include "Checks/UnregisteredModuleMemberCheck.h"
#include "Analysis/FunctionFacts.h"
#include "Analysis/ModuleMembers.h"
#include "Analysis/UnitAnalysis.h"
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
      cxxOperatorCallExpr(
          hasOverloadedOperatorName("="), argumentCountIs(2),
          hasArgument(0, ignoringParenImpCasts(memberExpr().bind("member"))),
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

/// Whether Value is computed from tensors its module registered (`g * v /
/// v.norm()`: weight normalisation in forward()): recomputed from trained
/// parameters on each call, the new tensor is meant to stand in for the
/// layer's own.
static bool isComputedFromRegisteredTensors(const Expr *Value) {
  bool Found = false;
  forEachStmt(Value, [&](const Stmt *S) {
    const auto *Member = dyn_cast<MemberExpr>(S);
    if (Found || !Member ||
        !isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()))
      return;
    const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
    Found = Field && isTensorType(Field->getType()) &&
            isRegisteredModuleMember(Field);
  });
  return Found;
}

void UnregisteredModuleMemberCheck::reportRebinding(
    const CXXOperatorCallExpr *Assignment, const MemberExpr *Member,
    const SourceManager &Sources) {
  const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
  if (!Field || !isRegisteredLayerTensor(Field))
    return;
  const Expr *Value = Assignment->getArg(1);
  std::string Target =
      writtenText(Member->getSourceRange(), Field->getASTContext());
  // `w = load_into(w, v)`, `w = w.copy_(v)`: the value may be the registered
  // tensor itself, handed back.
  if (!Target.empty() && mayReturnItsOperand(Value, Target))
    return;
  if (isComputedFromRegisteredTensors(Value))
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
  SourceLocation ValueEnd =
      Lexer::getLocForEndOfToken(Value->getEndLoc(), 0, Sources, getLangOpts());
  if (Member->getEndLoc().isMacroID() || Value->getBeginLoc().isMacroID() ||
      ValueEnd.isInvalid())
    return;
  SourceLocation TargetEnd = Lexer::getLocForEndOfToken(Member->getEndLoc(), 0,
                                                        Sources, getLangOpts());
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
  const ModuleMembers &Members =
      *UnitAnalysis::of(*Result.Context).moduleMembersOf(Class);
  llvm::SmallVector<UnregisteredMember, 8> Unregistered;
  bool RegistersAny = false;
  for (const auto &[Field, Use] : Members.Members) {
    RegistersAny |= Use.Registered;
    // A tensor member is reported only when it is meant to be trained; a
    // constant kept on the host on purpose is not a bug.
    if (Use.Registered || Use.SetAt.isInvalid() ||
        (!Use.IsSubmodule && !Use.RequiresGrad))
      continue;
    // A class without forward() that hands the member out is a holder: the
    // program runs, moves and trains the member itself, and registering it
    // in the holder changes nothing the program does.
    if (!Members.HasForward && Use.HandedOut)
      continue;
    // A private member that no constructor or method names holds what its
    // declaration gave it (an empty Sequential, a default layer) and is never
    // run: registering it changes nothing the program does. Code outside the
    // class may reach a public one.
    if (!Use.Used && Members.AllMethodsSeen && Field->getAccess() != AS_public)
      continue;
    // A submodule without weights has nothing to move or train: it matters
    // only when it behaves by mode (Dropout), and misses train()/eval().
    const CXXRecordDecl *Submodule = moduleClassOf(Field->getType());
    std::optional<ModuleParametersFact> SubmoduleWeights;
    if (Use.IsSubmodule)
      SubmoduleWeights =
          UnitAnalysis::of(*Result.Context).moduleParametersOf(Submodule);
    MemberKind Kind;
    SourceLocation WeightsRegisteredAt;
    if (!Use.IsSubmodule) {
      Kind = MemberKind::Parameter;
    } else if (!SubmoduleWeights) {
      continue; // Its class's constructor is in a file this one cannot see.
    } else if (SubmoduleWeights->HoldsParameters) {
      Kind = MemberKind::SubmoduleWithWeights;
      WeightsRegisteredAt = SubmoduleWeights->Constructor;
    } else if (moduleDependsOnTrainingMode(Submodule)) {
      Kind = MemberKind::ModeDependentSubmodule;
    } else {
      continue; // ReLU, MaxPool2d, a stateless module of the user's:
                // registering them changes nothing.
    }
    if (ReportedFields.contains(Field->getLocation().getRawEncoding()))
      continue;
    Unregistered.push_back({Field, &Use, Kind, WeightsRegisteredAt});
  }
  for (const UnregisteredMember &Member : Unregistered)
    ReportedFields.insert(Member.Field->getLocation().getRawEncoding());
  // A class that registers none of them forgot registration as a whole:
  // one finding, whose fix-its register every member.
  if (Unregistered.size() > 1 && !RegistersAny) {
    reportClass(Class, Unregistered, *Result.SourceManager);
    return;
  }
  for (const UnregisteredMember &Member : Unregistered)
    reportMember(Member, *Result.SourceManager);
}

static llvm::StringRef registrationFor(const ModuleMember &Use) {
  return Use.IsSubmodule ? "register_module" : "register_parameter";
}

void UnregisteredModuleMemberCheck::addRegistrationFixIt(
    DiagnosticBuilder &Diag, const UnregisteredMember &Member,
    const SourceManager &Sources) {
  const Expr *Value = Member.Use->SetValue;
  if (!Value || Value->getBeginLoc().isMacroID() ||
      Value->getEndLoc().isMacroID())
    return;
  SourceLocation End =
      Lexer::getLocForEndOfToken(Value->getEndLoc(), 0, Sources, getLangOpts());
  Diag << FixItHint::CreateInsertion(Value->getBeginLoc(),
                                     (registrationFor(*Member.Use) + "(\"" +
                                      Member.Field->getName() + "\", ")
                                         .str())
       << FixItHint::CreateInsertion(End, ")");
}

void UnregisteredModuleMemberCheck::reportMember(
    const UnregisteredMember &Member, const SourceManager &Sources) {
  {
    auto Diag =
        diag(Member.Use->SetAt,
             "%select{parameter|submodule|submodule}0 '%1' is never passed "
             "to '%2'; %select{'to(device)' will not move it and "
             "'parameters()' will not return it, so the optimizer never "
             "trains it|'to(device)' will not move it and 'parameters()' "
             "will not return its parameters, so the optimizer never trains "
             "them|'train()' and 'eval()' will not reach it, so it stays in "
             "training mode when the model is evaluated}0")
        << static_cast<int>(Member.Kind) << Member.Field->getName()
        << registrationFor(*Member.Use);
    addRegistrationFixIt(Diag, Member, Sources);
  }
  diag(Member.Field->getLocation(), "'%0' is declared here",
       DiagnosticIDs::Note)
      << Member.Field->getName();
  noteWeightsFact(Member);
}

void UnregisteredModuleMemberCheck::noteWeightsFact(
    const UnregisteredMember &Member) {
  if (Member.WeightsRegisteredAt.isValid())
    diag(Member.WeightsRegisteredAt,
         "'%0' holds parameters: its constructor, defined here, registers "
         "them",
         DiagnosticIDs::Note)
        << moduleClassOf(Member.Field->getType())->getName();
}

void UnregisteredModuleMemberCheck::reportClass(
    const CXXRecordDecl *Class, llvm::ArrayRef<UnregisteredMember> Members,
    const SourceManager &Sources) {
  bool AnySubmodule = false, AnyParameter = false, AnyWeights = false;
  for (const UnregisteredMember &Member : Members) {
    AnySubmodule |= Member.Use->IsSubmodule;
    AnyParameter |= !Member.Use->IsSubmodule;
    AnyWeights |= Member.Kind != MemberKind::ModeDependentSubmodule;
  }
  // 0: submodules, 1: parameters, 2: both.
  unsigned What = AnySubmodule && AnyParameter ? 2 : AnyParameter ? 1 : 0;
  {
    auto Diag =
        diag(Members.front().Use->SetAt,
             "none of the %0 %select{submodules|parameters|submodules and "
             "parameters}1 of '%2' is passed to %select{'register_module'|"
             "'register_parameter'|'register_module' or "
             "'register_parameter'}1; %select{'train()' and 'eval()' will not "
             "reach them, so they stay in training mode when the model is "
             "evaluated|'to(device)' will not move them and 'parameters()' "
             "will not return them, so the optimizer never trains them}3")
        << static_cast<unsigned>(Members.size()) << What << Class->getName()
        << AnyWeights;
    for (const UnregisteredMember &Member : Members)
      addRegistrationFixIt(Diag, Member, Sources);
  }
  for (const UnregisteredMember &Member : Members.drop_front())
    diag(Member.Use->SetAt, "'%0' is set here, without '%1'",
         DiagnosticIDs::Note)
        << Member.Field->getName() << registrationFor(*Member.Use);
  for (const UnregisteredMember &Member : Members)
    noteWeightsFact(Member);
}

} // namespace torchtidy
