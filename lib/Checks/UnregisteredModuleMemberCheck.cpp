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

std::string UnregisteredModuleMemberCheck::UnregisteredMember::name() const {
  if (!Element)
    return Field->getName().str();
  return (Field->getName() + "[" + llvm::Twine(*Element) + "]").str();
}

std::string
UnregisteredModuleMemberCheck::UnregisteredMember::registrationName() const {
  if (!Element)
    return Field->getName().str();
  return (Field->getName() + llvm::Twine(*Element)).str();
}

SourceLocation::UIntTy
UnregisteredModuleMemberCheck::UnregisteredMember::reportKey() const {
  // Each element is set in its own place; a field is declared in one.
  return (Element ? Use->SetAt : Field->getLocation()).getRawEncoding();
}

std::optional<UnregisteredModuleMemberCheck::UnregisteredMember>
UnregisteredModuleMemberCheck::judgeMember(const ModuleMembers &Members,
                                           const FieldDecl *Field,
                                           const ModuleMember &Use,
                                           std::optional<uint64_t> Element,
                                           ASTContext &Ctx) {
  // A tensor member is reported only when it is meant to be trained; a
  // constant kept on the host on purpose is not a bug.
  if (Use.Registered || Use.SetAt.isInvalid() ||
      (!Use.IsSubmodule && !Use.RequiresGrad))
    return std::nullopt;
  // A class without forward() that hands the member out is a holder: the
  // program runs, moves and trains the member itself, and registering it
  // in the holder changes nothing the program does.
  if (!Members.HasForward && Use.HandedOut)
    return std::nullopt;
  // A private member that no constructor or method names holds what its
  // declaration gave it (an empty Sequential, a default layer) and is never
  // run: registering it changes nothing the program does. Code outside the
  // class may reach a public one.
  if (!Use.Used && Members.AllMethodsSeen && Field->getAccess() != AS_public)
    return std::nullopt;
  UnregisteredMember Member{Field, Element, &Use, MemberKind::Parameter};
  if (ReportedFields.contains(Member.reportKey()))
    return std::nullopt;
  if (!Use.IsSubmodule)
    return Member;
  // A submodule without weights has nothing to move or train: it matters
  // only when it behaves by mode (Dropout), and misses train()/eval().
  const CXXRecordDecl *Submodule = Member.submoduleClass();
  std::optional<ModuleParametersFact> SubmoduleWeights =
      UnitAnalysis::of(Ctx).moduleParametersOf(Submodule);
  if (!SubmoduleWeights)
    return std::nullopt; // Its class's constructor is in a file this one
                         // cannot see.
  if (SubmoduleWeights->HoldsParameters) {
    Member.Kind = MemberKind::SubmoduleWithWeights;
    Member.WeightsRegisteredAt = SubmoduleWeights->Constructor;
    return Member;
  }
  if (moduleDependsOnTrainingMode(Submodule)) {
    Member.Kind = MemberKind::ModeDependentSubmodule;
    return Member;
  }
  return std::nullopt; // ReLU, MaxPool2d, a stateless module of the user's:
                       // registering them changes nothing.
}

const CXXRecordDecl *
UnregisteredModuleMemberCheck::UnregisteredMember::submoduleClass() const {
  return moduleClassOf(Element ? moduleHandleElementType(Field->getType())
                               : Field->getType());
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
  auto Judge = [&](const FieldDecl *Field, const ModuleMember &Use,
                   std::optional<uint64_t> Element) {
    RegistersAny |= Use.Registered;
    if (std::optional<UnregisteredMember> Member =
            judgeMember(Members, Field, Use, Element, *Result.Context))
      Unregistered.push_back(*Member);
  };
  for (const auto &[Field, Use] : Members.Members)
    Judge(Field, Use, std::nullopt);
  for (const auto &[Element, Use] : Members.Elements)
    Judge(Element.first, Use, Element.second);
  for (const UnregisteredMember &Member : Unregistered)
    ReportedFields.insert(Member.reportKey());
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
                                      Member.registrationName() + "\", ")
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
        << static_cast<int>(Member.Kind) << Member.name()
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
        << Member.submoduleClass()->getName();
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
        << Member.name() << registrationFor(*Member.Use);
  for (const UnregisteredMember &Member : Members)
    noteWeightsFact(Member);
}

} // namespace torchtidy
