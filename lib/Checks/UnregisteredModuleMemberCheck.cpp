//===--- UnregisteredModuleMemberCheck.cpp -
// libtorch-unregistered-module-member ===//

#include "Checks/UnregisteredModuleMemberCheck.h"
#include "Model/TorchApi.h"

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/MapVector.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {
namespace {

/// What the class's own code does with one member that needs registering.
struct MemberUse {
  bool IsSubmodule = false; ///< else a tensor
  bool Registered = false;
  bool RequiresGrad = false; ///< tensors: created or marked requiring grad
  /// Given `nullptr` somewhere (`fc{nullptr}`, `fc(nullptr)`): without a
  /// later assignment it holds no module.
  bool InitializedEmpty = false;
  /// Where the member first gets a value, and that value when it is one
  /// complete expression (so it can be wrapped in register_*).
  SourceLocation SetAt;
  const Expr *SetValue = nullptr;
};

template <typename Callback> void forEachStmt(const Stmt *S, Callback &&Visit) {
  if (!S)
    return;
  Visit(S);
  for (const Stmt *Child : S->children())
    forEachStmt(Child, Visit);
}

bool containsCall(const Stmt *S,
                  llvm::function_ref<bool(const CallExpr *)> Is) {
  bool Found = false;
  forEachStmt(S, [&](const Stmt *Sub) {
    if (const auto *Call = dyn_cast<CallExpr>(Sub))
      Found = Found || Is(Call);
  });
  return Found;
}

bool isRequiresGradCall(const CallExpr *Call) {
  return classifyCall(Call) == TorchCallKind::RequiresGrad;
}

/// The written value a member initializer copies, which a fix-it can wrap:
/// `torch::nn::Linear(4, 2)` or `std::make_shared<Net>()`. Null when the
/// member is constructed in place from arguments (`fc(4, 2)`, `fc{4, 2}`).
const Expr *wrappableValue(const Expr *Init) {
  const Expr *E = Init->IgnoreImplicit();
  if (isa<InitListExpr>(E))
    return nullptr;
  if (isa<CXXConstructExpr>(E) && !isa<CXXTemporaryObjectExpr>(E))
    return nullptr;
  return E;
}

/// `nullptr`, or a handle constructed from it: the member stays empty.
bool isEmptyHandle(const Expr *E) {
  E = E->IgnoreImplicit();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
    return Construct->getNumArgs() == 1 && isEmptyHandle(Construct->getArg(0));
  if (const auto *List = dyn_cast<InitListExpr>(E))
    return List->getNumInits() == 1 && isEmptyHandle(List->getInit(0));
  return E->getType()->isNullPtrType();
}

class MemberCollector {
public:
  explicit MemberCollector(const CXXRecordDecl *Class) {
    for (const FieldDecl *Field : Class->fields()) {
      bool IsSubmodule = isModuleHandleType(Field->getType());
      if (IsSubmodule || isTensorType(Field->getType()))
        Members[Field].IsSubmodule = IsSubmodule;
    }
  }

  /// Reads what the class's constructors and methods (and the in-class
  /// initializers) do with the members.
  void collect(const CXXRecordDecl *Class) {
    for (auto &[Field, Use] : Members)
      if (const Expr *Init = Field->getInClassInitializer())
        noteInitializer(Field, Init, Field->getLocation());
    for (const CXXMethodDecl *Method : Class->methods()) {
      const FunctionDecl *Definition = nullptr;
      if (!Method->hasBody(Definition))
        continue;
      if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Definition))
        for (const CXXCtorInitializer *Init : Ctor->inits())
          if (Init->isWritten() && Init->getMember())
            noteInitializer(Init->getMember(), Init->getInit(),
                            Init->getSourceLocation());
      forEachStmt(Definition->getBody(),
                  [&](const Stmt *S) { noteStatement(S); });
    }
    // `torch::nn::Dropout2d drop;`: a holder nobody set is default-
    // constructed, and so holds a module from its declaration on. Unless a
    // constructor defined elsewhere may set (and register) it.
    bool AllConstructorsSeen =
        llvm::all_of(Class->ctors(), [](const CXXConstructorDecl *Ctor) {
          return Ctor->isImplicit() || Ctor->isDefaulted() || Ctor->hasBody();
        });
    if (!AllConstructorsSeen)
      return;
    for (auto &[Field, Use] : Members)
      if (Use.IsSubmodule && Use.SetAt.isInvalid() && !Use.InitializedEmpty &&
          isModuleHolderType(Field->getType()))
        Use.SetAt = Field->getLocation();
  }

  llvm::MapVector<const FieldDecl *, MemberUse> Members;

private:
  MemberUse *useOf(const Expr *E) {
    if (!E)
      return nullptr;
    const auto *Member = dyn_cast<MemberExpr>(ignoreValuePreserving(E));
    if (!Member || !isa<CXXThisExpr>(Member->getBase()->IgnoreImpCasts()))
      return nullptr;
    auto It = Members.find(dyn_cast<FieldDecl>(Member->getMemberDecl()));
    return It == Members.end() ? nullptr : &It->second;
  }

  /// The member gets Init at At; WrappableValue is the part of Init that a
  /// fix-it can wrap in register_*, if any.
  void noteSet(MemberUse &Use, SourceLocation At, const Expr *Init,
               const Expr *WrappableValue) {
    if (containsCall(Init, isModuleRegistrationCall))
      Use.Registered = true;
    if (containsCall(Init, isRequiresGradCall))
      Use.RequiresGrad = true;
    if (Use.SetAt.isInvalid()) {
      Use.SetAt = At;
      Use.SetValue = WrappableValue;
    }
  }

  /// `member(value)` in a constructor, or `member{...}` in the class.
  void noteInitializer(const FieldDecl *Field, const Expr *Init,
                       SourceLocation At) {
    auto It = Members.find(Field);
    if (It == Members.end())
      return;
    if (isEmptyHandle(Init)) {
      It->second.InitializedEmpty = true;
      return;
    }
    noteSet(It->second, At, Init, wrappableValue(Init));
  }

  void noteStatement(const Stmt *S) {
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call)
      return;
    if (isModuleRegistrationCall(Call)) {
      for (const Expr *Arg : Call->arguments())
        if (MemberUse *Use = useOf(Arg))
          Use->Registered = true;
      return;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
        Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
      if (MemberUse *Use = useOf(Op->getArg(0)))
        if (!isEmptyHandle(Op->getArg(1)))
          noteSet(*Use, Op->getArg(0)->getBeginLoc(), Op->getArg(1),
                  Op->getArg(1));
      return;
    }
    if (isRequiresGradCall(Call))
      if (MemberUse *Use = useOf(callObject(Call)))
        Use->RequiresGrad = true;
  }
};

} // namespace

void UnregisteredModuleMemberCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      cxxRecordDecl(isDefinition(), unless(isExpansionInSystemHeader()))
          .bind("class"),
      this);
}

void UnregisteredModuleMemberCheck::check(
    const MatchFinder::MatchResult &Result) {
  const auto *Class = Result.Nodes.getNodeAs<CXXRecordDecl>("class");
  // Template patterns hold unresolved calls; their instantiations are read.
  if (!isModuleClass(Class) || Class->isDependentContext())
    return;
  MemberCollector Collector(Class);
  Collector.collect(Class);
  const SourceManager &Sources = *Result.SourceManager;
  for (const auto &[Field, Use] : Collector.Members) {
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
      continue; // ReLU, MaxPool2d: registering them changes nothing.
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
