//===--- ModuleMembers.cpp - What a module class registers ----------------===//

#include "Analysis/ModuleMembers.h"
#include "Analysis/FunctionFacts.h"
#include "Model/TorchApi.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace torchtidy {
namespace {

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

/// An array's initialiser that leaves every element empty:
/// `{nullptr, nullptr, nullptr}`, also as a std::array's nested list.
bool isEmptyElements(const Expr *E) {
  const auto *List = dyn_cast<InitListExpr>(E->IgnoreImplicit());
  return List && llvm::all_of(List->inits(), [](const Expr *Element) {
           return isa<ImplicitValueInitExpr>(Element) ||
                  isEmptyHandle(Element) || isEmptyElements(Element);
         });
}

/// The arguments of a container insertion (isModuleContainerInsertion).
llvm::SmallVector<const Expr *, 4> insertedModules(const Expr *Insertion) {
  llvm::SmallVector<const Expr *, 4> Args;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Insertion))
    Args.append(Construct->arg_begin(), Construct->arg_end());
  else if (const auto *Call = dyn_cast<CallExpr>(Insertion))
    Args.append(Call->arg_begin() + firstParameterArgument(Call),
                Call->arg_end());
  return Args;
}

const VarDecl *referencedVariable(const Expr *E) {
  const auto *Ref =
      dyn_cast_or_null<DeclRefExpr>(E ? ignoreValuePreserving(E) : nullptr);
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

class MemberCollector {
public:
  explicit MemberCollector(const CXXRecordDecl *Class) {
    for (const FieldDecl *Field : Class->fields()) {
      bool IsSubmodule = isModuleHandleType(Field->getType());
      if (IsSubmodule || isTensorType(Field->getType()))
        Members[Field].IsSubmodule = IsSubmodule;
      else if (!moduleHandleElementType(Field->getType()).isNull())
        ElementArrays[Field] = 0;
    }
  }

  /// The elements of the member arrays of submodules whose every use names
  /// one element by a constant index.
  llvm::MapVector<std::pair<const FieldDecl *, uint64_t>, ModuleMember>
  takeElements() {
    llvm::MapVector<std::pair<const FieldDecl *, uint64_t>, ModuleMember>
        Judged;
    for (auto &[Key, Use] : Elements)
      if (ElementArrays.lookup(Key.first) == 0)
        Judged.insert({Key, Use});
    return Judged;
  }

  /// Reads what the class's constructors and methods (and the in-class
  /// initializers) do with the members.
  void collect(const CXXRecordDecl *Class) {
    for (auto &[Field, Use] : Members)
      if (const Expr *Init = Field->getInClassInitializer())
        noteInitializer(Field, Init, Field->getLocation());
    // `torch::nn::LayerNorm norm[3]{nullptr, nullptr, nullptr}`: empty
    // elements, to be set in the code; any other initialiser sets them
    // where no index says which.
    for (auto &[Field, OtherUses] : ElementArrays)
      if (const Expr *Init = Field->getInClassInitializer();
          Init && !isEmptyElements(Init))
        ++OtherUses;
    for (const CXXMethodDecl *Method : Class->methods()) {
      const FunctionDecl *Definition = nullptr;
      if (!Method->hasBody(Definition))
        continue;
      if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Definition))
        for (const CXXCtorInitializer *Init : Ctor->inits())
          if (Init->isWritten() && Init->getMember()) {
            noteInitializer(Init->getMember(), Init->getInit(),
                            Init->getSourceLocation());
            noteUse(Init->getMember());
            if (ElementArrays.count(Init->getMember()) &&
                !isEmptyElements(Init->getInit()))
              ++ElementArrays[Init->getMember()];
            forEachStmt(Init->getInit(), [&](const Stmt *S) { noteUse(S); });
          }
      forEachStmt(Definition->getBody(), [&](const Stmt *S) { noteUse(S); });
      forEachStmt(Definition->getBody(),
                  [&](const Stmt *S) { noteStatement(S); });
      noteElementArrayUses(Definition->getBody());
      // Containers built or filled in local variables count once the
      // variable itself is registered, anywhere in the same body.
      forEachStmt(Definition->getBody(), [&](const Stmt *S) {
        const auto *Call = dyn_cast<CallExpr>(S);
        if (!Call || !isModuleRegistrationCall(Call))
          return;
        for (const Expr *Arg : Call->arguments())
          if (const VarDecl *Var = referencedVariable(Arg))
            for (ModuleMember *Use : MembersInLocalContainers.lookup(Var))
              Use->Registered = true;
      });
      MembersInLocalContainers.clear();
    }
    // A method template's pattern names the members it uses too (its
    // registration calls are read in the instantiations, as methods).
    for (const Decl *D : Class->decls())
      if (const auto *Template = dyn_cast<FunctionTemplateDecl>(D))
        if (const FunctionDecl *Pattern = Template->getTemplatedDecl();
            Pattern->hasBody()) {
          forEachStmt(Pattern->getBody(), [&](const Stmt *S) { noteUse(S); });
          noteElementArrayUses(Pattern->getBody());
        }
    // `torch::nn::Dropout2d drop;`: a holder nobody set is default-
    // constructed, and so holds a module from its declaration on.
    for (auto &[Field, Use] : Members)
      if (Use.IsSubmodule && Use.SetAt.isInvalid() && !Use.InitializedEmpty &&
          isModuleHolderType(Field->getType()))
        Use.SetAt = Field->getLocation();
  }

  llvm::MapVector<const FieldDecl *, ModuleMember> Members;

private:
  void noteUse(const FieldDecl *Field) {
    auto It = Members.find(Field);
    if (It != Members.end())
      It->second.Used = true;
  }
  void noteUse(const Stmt *S) {
    if (const auto *Member = dyn_cast<MemberExpr>(S))
      if (const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl()))
        noteUse(Field);
  }

  /// `this->norm[2]`, `norm.at(2)`: the member array and the index, for an
  /// element of an array of submodules named by a constant index.
  std::optional<std::pair<const FieldDecl *, uint64_t>>
  elementOf(const Expr *E) {
    const Expr *Array = nullptr, *Index = nullptr;
    E = ignoreValuePreserving(E);
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E)) {
      Array = Subscript->getBase();
      Index = Subscript->getIdx();
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
               Op && Op->getOperator() == OO_Subscript &&
               Op->getNumArgs() == 2) {
      Array = Op->getArg(0);
      Index = Op->getArg(1);
    } else if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E);
               Call && Call->getNumArgs() == 1 && Call->getMethodDecl() &&
               Call->getMethodDecl()->getIdentifier() &&
               Call->getMethodDecl()->getName() == "at") {
      Array = Call->getImplicitObjectArgument();
      Index = Call->getArg(0);
    }
    const auto *Member =
        dyn_cast_or_null<MemberExpr>(Array ? Array->IgnoreImpCasts() : nullptr);
    if (!Member || !isa<CXXThisExpr>(Member->getBase()->IgnoreImpCasts()))
      return std::nullopt;
    const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
    if (!Field || !ElementArrays.count(Field) || Index->isValueDependent())
      return std::nullopt;
    std::optional<llvm::APSInt> Value =
        Index->getIntegerConstantExpr(Field->getASTContext());
    if (!Value || Value->isNegative())
      return std::nullopt;
    return std::make_pair(Field, Value->getZExtValue());
  }

  /// Counts the uses of each member array of submodules in Body that are not
  /// one element by a constant index.
  void noteElementArrayUses(const Stmt *Body) {
    llvm::DenseSet<const MemberExpr *> ElementBases;
    forEachStmt(Body, [&](const Stmt *S) {
      const auto *E = dyn_cast<Expr>(S);
      if (!E || !elementOf(E))
        return;
      forEachStmt(E, [&](const Stmt *Sub) {
        if (const auto *Member = dyn_cast<MemberExpr>(Sub))
          ElementBases.insert(Member);
      });
    });
    forEachStmt(Body, [&](const Stmt *S) {
      const auto *Member = dyn_cast<MemberExpr>(S);
      const auto *Field =
          Member ? dyn_cast<FieldDecl>(Member->getMemberDecl()) : nullptr;
      if (Field && ElementArrays.count(Field) && !ElementBases.count(Member))
        ++ElementArrays[Field];
    });
  }

  ModuleMember *useOf(const Expr *E) {
    if (!E)
      return nullptr;
    if (std::optional<std::pair<const FieldDecl *, uint64_t>> Element =
            elementOf(E)) {
      ModuleMember &Use = Elements[*Element];
      Use.IsSubmodule = true;
      Use.Used = true;
      return &Use;
    }
    const auto *Member = dyn_cast<MemberExpr>(ignoreValuePreserving(E));
    if (!Member || !isa<CXXThisExpr>(Member->getBase()->IgnoreImpCasts()))
      return nullptr;
    auto It = Members.find(dyn_cast<FieldDecl>(Member->getMemberDecl()));
    return It == Members.end() ? nullptr : &It->second;
  }

  /// The members anywhere inside E: the layers a container is given may be
  /// wrapped (AnyModule, NamedAnyModule, a braced list of them).
  llvm::SmallVector<ModuleMember *, 4> membersWithin(const Expr *E) {
    llvm::SmallVector<ModuleMember *, 4> Found;
    forEachStmt(E, [&](const Stmt *S) {
      if (const auto *Sub = dyn_cast<Expr>(S))
        if (ModuleMember *Use = useOf(Sub))
          Found.push_back(Use);
    });
    return Found;
  }

  /// The members added to a container module by Insertion.
  llvm::SmallVector<ModuleMember *, 4> insertedMembers(const Expr *Insertion) {
    llvm::SmallVector<ModuleMember *, 4> Found;
    for (const Expr *Arg : insertedModules(Insertion))
      Found.append(membersWithin(Arg));
    return Found;
  }

  /// Members added to containers inside E, which E's value then holds or
  /// registers.
  llvm::SmallVector<ModuleMember *, 4>
  membersInContainersWithin(const Stmt *E) {
    llvm::SmallVector<ModuleMember *, 4> Found;
    forEachStmt(E, [&](const Stmt *S) {
      if (const auto *Sub = dyn_cast<Expr>(S);
          Sub && isModuleContainerInsertion(Sub))
        Found.append(insertedMembers(Sub));
    });
    return Found;
  }

  /// The member gets Init at At; WrappableValue is the part of Init that a
  /// fix-it can wrap in register_*, if any.
  void noteSet(ModuleMember &Use, SourceLocation At, const Expr *Init,
               const Expr *WrappableValue) {
    if (Init->containsErrors())
      return;
    if (containsCallWhere(Init, isModuleRegistrationCall))
      Use.Registered = true;
    if (containsCallWhere(Init, isRequiresGradCall))
      Use.RequiresGrad = true;
    // A container member is judged on its own; what it holds is reachable
    // through it.
    if (isModuleContainerType(WrappableValue ? WrappableValue->getType()
                                             : Init->getType()) ||
        Use.Registered)
      for (ModuleMember *Held : membersInContainersWithin(Init))
        Held->Registered = true;
    if (Use.SetAt.isInvalid()) {
      Use.SetAt = At;
      Use.SetValue = WrappableValue;
    }
  }

  /// `member(value)` in a constructor, or `member{...}` in the class.
  void noteInitializer(const FieldDecl *Field, const Expr *Init,
                       SourceLocation At) {
    // Code clang could not make sense of (after a fatal error: a
    // ParenListExpr of no type around a RecoveryExpr) says nothing.
    if (!Init || Init->containsErrors())
      return;
    auto It = Members.find(Field);
    if (It == Members.end()) {
      // A container held by value, or any other member built from ours.
      if (isModuleContainerType(Field->getType()))
        for (ModuleMember *Held : membersInContainersWithin(Init))
          Held->Registered = true;
      return;
    }
    if (isEmptyHandle(Init)) {
      It->second.InitializedEmpty = true;
      return;
    }
    noteSet(It->second, At, Init, wrappableValue(Init));
  }

  void noteStatement(const Stmt *S) {
    if (const auto *Decl = dyn_cast<DeclStmt>(S)) {
      for (const clang::Decl *D : Decl->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D);
            Var && Var->getInit() && isModuleContainerType(Var->getType()))
          MembersInLocalContainers[Var].append(
              membersInContainersWithin(Var->getInit()));
      return;
    }
    if (const auto *Return = dyn_cast<ReturnStmt>(S)) {
      if (ModuleMember *Use = useOf(Return->getRetValue()))
        Use->HandedOut = true;
      return;
    }
    const auto *Call = dyn_cast<CallExpr>(S);
    if (!Call)
      return;
    if (isModuleRegistrationCall(Call)) {
      for (const Expr *Arg : Call->arguments()) {
        if (ModuleMember *Use = useOf(Arg))
          Use->Registered = true;
        // `this->model = model; ... register_module("model", model);`: the
        // variable the member was set from is the same handle.
        if (const VarDecl *Var = referencedVariable(Arg))
          for (auto &[Field, Use] : Members)
            if (Use.SetValue && referencedVariable(Use.SetValue) == Var)
              Use.Registered = true;
        for (ModuleMember *Held : membersInContainersWithin(Arg))
          Held->Registered = true;
      }
      return;
    }
    if (isModuleContainerInsertion(Call)) {
      const Expr *Container = callObject(Call);
      if (useOf(Container)) {
        for (ModuleMember *Held : insertedMembers(Call))
          Held->Registered = true;
      } else if (const VarDecl *Var = referencedVariable(Container)) {
        MembersInLocalContainers[Var].append(insertedMembers(Call));
      }
      return;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
        Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
      if (ModuleMember *Use = useOf(Op->getArg(0)))
        if (!isEmptyHandle(Op->getArg(1)))
          noteSet(*Use, Op->getArg(0)->getBeginLoc(), Op->getArg(1),
                  Op->getArg(1));
      return;
    }
    if (isRequiresGradCall(Call))
      if (ModuleMember *Use = useOf(callObject(Call)))
        Use->RequiresGrad = true;
  }

  /// Per member array of submodules, how many uses do not name one element
  /// by a constant index: its elements are judged only when none does.
  llvm::DenseMap<const FieldDecl *, unsigned> ElementArrays;
  llvm::MapVector<std::pair<const FieldDecl *, uint64_t>, ModuleMember>
      Elements;

  /// Per local container variable of the method being read, the members
  /// added to it.
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<ModuleMember *, 4>>
      MembersInLocalContainers;
};

/// Whether the class, or a class it derives from, declares a `forward`:
/// LibTorch's layers do, its Module and Cloneable bases do not.
bool declaresForward(const CXXRecordDecl *Class) {
  if (!Class || !Class->hasDefinition())
    return false;
  Class = Class->getDefinition();
  for (const CXXMethodDecl *Method : Class->methods())
    if (Method->getIdentifier() && Method->getName() == "forward")
      return true;
  for (const CXXBaseSpecifier &Base : Class->bases())
    if (declaresForward(Base.getType()->getAsCXXRecordDecl()))
      return true;
  return false;
}

} // namespace

ModuleMembers collectModuleMembers(const CXXRecordDecl *ModuleClass) {
  ModuleMembers Result;
  // A class that an error made invalid may have lost its constructors'
  // bodies (clang drops them): what they register is unknown.
  Result.AllConstructorsSeen =
      !ModuleClass->isInvalidDecl() &&
      llvm::all_of(ModuleClass->ctors(), [](const CXXConstructorDecl *Ctor) {
        return !Ctor->isInvalidDecl() &&
               (Ctor->isImplicit() || Ctor->isDefaulted() ||
                Ctor->isDeleted() || Ctor->hasBody());
      });
  if (!Result.AllConstructorsSeen)
    return Result;
  Result.AllMethodsSeen = llvm::all_of(ModuleClass->decls(), [](const Decl *D) {
    if (const auto *Template = dyn_cast<FunctionTemplateDecl>(D))
      D = Template->getTemplatedDecl();
    const auto *Method = dyn_cast<CXXMethodDecl>(D);
    return !Method || Method->isImplicit() || Method->isDefaulted() ||
           Method->isDeleted() || Method->isPureVirtual() || Method->hasBody();
  });
  Result.HasForward = declaresForward(ModuleClass);
  MemberCollector Collector(ModuleClass);
  Collector.collect(ModuleClass);
  Result.Members = std::move(Collector.Members);
  Result.Elements = Collector.takeElements();
  return Result;
}

} // namespace torchtidy
