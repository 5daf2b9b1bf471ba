//===--- LoopInvariance.cpp - Values the same in every iteration ----------===//

#include "Analysis/LoopInvariance.h"
#include "Analysis/FunctionFacts.h"
#include "Model/TorchApi.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLFunctionalExtras.h"

using namespace clang;

namespace torchtidy {
namespace {

/// Recognises the expressions that name one piece of storage.
using NamesStorage = llvm::function_ref<bool(const Expr *)>;

/// Whether the standard library takes parameter Index of Callee by a
/// forwarding reference (`std::make_tuple(h, c)`): it copies or moves what
/// it is given into what it builds, and changes no lvalue.
bool isForwardedByStandardLibrary(const FunctionDecl *Callee, unsigned Index) {
  const FunctionDecl *Pattern = Callee->getTemplateInstantiationPattern();
  if (!Pattern || !Callee->isInStdNamespace() || Pattern->getNumParams() == 0)
    return false;
  // A pack (`_Elements&&... args`) is the pattern's last parameter.
  unsigned Last = Pattern->getNumParams() - 1;
  const ParmVarDecl *Param = Pattern->getParamDecl(std::min(Index, Last));
  if (Index > Last && !Param->isParameterPack())
    return false;
  QualType Type = Param->getType();
  if (const auto *Pack = Type->getAs<PackExpansionType>())
    Type = Pack->getPattern();
  const auto *Reference = Type->getAs<RValueReferenceType>();
  return Reference &&
         Reference->getPointeeType()->getAs<TemplateTypeParmType>();
}

/// Whether S may change the storage Names recognises: assigned (`x = ...`,
/// `x += ...`), incremented, an in-place op or any non-const method or
/// operator (`x.add_(...)`, `buf[i] = v`, `buf.data()`), its address taken,
/// or bound to a non-const reference parameter; anywhere but under Ignored.
/// Read top-down, so no parent map is needed.
///
/// With Assignments false, only what changes the storage in place counts:
/// a variable given a new tensor (`h = lstm(x, h)`) still leaves the old
/// one as it was.
bool changesIn(const Stmt *S, NamesStorage Names, const Stmt *Ignored = nullptr,
               bool Assignments = true) {
  if (!S || S == Ignored)
    return false;
  if (const auto *Binary = dyn_cast<BinaryOperator>(S);
      Assignments && Binary && Binary->isAssignmentOp() &&
      Names(Binary->getLHS()))
    return true;
  if (const auto *Unary = dyn_cast<UnaryOperator>(S);
      Unary &&
      (Unary->isIncrementDecrementOp() || Unary->getOpcode() == UO_AddrOf) &&
      Names(Unary->getSubExpr()))
    return true;
  // `x = y`, `buf[i] = v`, `buf.at(i)`: a non-const operator of the object.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
      Op && Op->getNumArgs() > 0 && Names(Op->getArg(0))) {
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
    // A tensor's part assigned (`buf[i] = v`) is written in place.
    bool IntoPart =
        viewedStorage(Op->getArg(0)) != ignoreValuePreserving(Op->getArg(0));
    if (Op->getOperator() == OO_Equal
            ? Assignments || IntoPart
            : Op->isAssignmentOp() || (Method && !Method->isConst()))
      return true;
  }
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(S);
      Member && Names(Member->getImplicitObjectArgument())) {
    const CXXMethodDecl *Method = Member->getMethodDecl();
    if (!Method || !Method->isConst() || Method->getName().ends_with("_"))
      return true;
  }
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    unsigned Offset = firstParameterArgument(Call);
    for (unsigned I = Offset; I < Call->getNumArgs(); ++I) {
      if (!Names(Call->getArg(I)))
        continue;
      if (!Callee || I - Offset >= Callee->getNumParams())
        return true; // Unknown callee or variadic: assume the worst.
      QualType Param = Callee->getParamDecl(I - Offset)->getType();
      if (Param->isLValueReferenceType() &&
          !Param.getNonReferenceType().isConstQualified() &&
          !isForwardedByStandardLibrary(Callee, I - Offset))
        return true;
    }
  }
  for (const Stmt *Child : S->children())
    if (changesIn(Child, Names, Ignored, Assignments))
      return true;
  return false;
}

bool isThis(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Deref = dyn_cast<UnaryOperator>(E);
      Deref && Deref->getOpcode() == UO_Deref)
    E = Deref->getSubExpr()->IgnoreParenImpCasts();
  return isa<CXXThisExpr>(E);
}

/// Whether code under S may change the object a method runs on other than
/// through its fields by name: it calls a non-const method of it, or hands
/// `this` or `*this` to a function.
bool mayChangeThisObject(const Stmt *S) {
  bool Changes = false;
  forEachStmt(S, [&](const Stmt *Node) {
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Node))
      if (const CXXMethodDecl *Method = Member->getMethodDecl();
          isThis(Member->getImplicitObjectArgument()) &&
          (!Method || !Method->isConst()))
        Changes = true;
    if (const auto *Call = dyn_cast<CallExpr>(Node))
      for (const Expr *Arg : Call->arguments())
        Changes |= isThis(Arg);
  });
  return Changes;
}

/// The copies off the host that S makes itself, in source order: not those
/// of a loop or a lambda under it, which run as often as those say.
void collectTransfers(const Stmt *S,
                      llvm::SmallVectorImpl<const CallExpr *> &Out) {
  if (!S || isa<ForStmt, CXXForRangeStmt, WhileStmt, DoStmt, LambdaExpr>(S))
    return;
  if (const auto *Call = dyn_cast<CallExpr>(S);
      Call && classifyCall(Call) == TorchCallKind::Migration) {
    TransferTarget Target = transferTarget(Call);
    if ((Target == TransferTarget::OffHost ||
         Target == TransferTarget::Unknown) &&
        callObject(Call))
      Out.push_back(Call);
  }
  for (const Stmt *Child : S->children())
    collectTransfers(Child, Out);
}

/// The calls S makes itself of functions of the program that it defines
/// and that are not virtual: helpers whose body tells what each call does.
void collectHelperCalls(const Stmt *S,
                        llvm::SmallVectorImpl<const CallExpr *> &Out) {
  if (!S || isa<ForStmt, CXXForRangeStmt, WhileStmt, DoStmt, LambdaExpr>(S))
    return;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *Callee = Call->getDirectCallee()) {
      const FunctionDecl *Definition = Callee->getDefinition();
      const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
      if (Definition && Definition->getBody() &&
          !isInLibTorchNamespace(Definition) &&
          !Definition->getASTContext().getSourceManager().isInSystemHeader(
              Definition->getLocation()) &&
          !(Method && Method->isVirtual()))
        Out.push_back(Call);
    }
  for (const Stmt *Child : S->children())
    collectHelperCalls(Child, Out);
}

/// The parts of a value: all of them, or none when one is not the same in
/// every iteration. The holder and the rebuilding call are the first part's
/// that has one (the object of a method call comes first).
std::optional<InvariantOrigin>
joinParts(llvm::ArrayRef<std::optional<InvariantOrigin>> Parts) {
  InvariantOrigin Joined;
  for (const std::optional<InvariantOrigin> &Part : Parts) {
    if (!Part)
      return std::nullopt;
    if (!Joined.Holder)
      Joined.Holder = Part->Holder;
    if (!Joined.Rebuilt)
      Joined.Rebuilt = Part->Rebuilt;
  }
  return Joined;
}

/// Past this nesting an expression counts as different in each iteration.
constexpr unsigned MaxInvarianceDepth = 32;

} // namespace

LoopInvariance::LoopInvariance(const Stmt *Body, const Stmt *Loop,
                               const FunctionDecl *GivenParameters,
                               const SourceManager &SM)
    : Body(Body), Loop(Loop), GivenParameters(GivenParameters), SM(SM) {}

LoopInvariance::LoopInvariance(const Stmt *Loop, const SourceManager &SM)
    : LoopInvariance(loopBody(Loop), Loop, nullptr, SM) {}

LoopInvariance LoopInvariance::perCall(const FunctionDecl *Function,
                                       const SourceManager &SM) {
  return LoopInvariance(Function->getBody(), nullptr, nullptr, SM);
}

LoopInvariance LoopInvariance::sameArguments(const FunctionDecl *Function,
                                             const SourceManager &SM) {
  return LoopInvariance(Function->getBody(), nullptr, Function, SM);
}

bool LoopInvariance::isDeclaredInBody(const Decl *D) const {
  return Body && rangeContains(SM, Body->getSourceRange(), D->getLocation());
}

std::vector<InvariantTransfer> LoopInvariance::transfersOfSameTensor() const {
  std::vector<InvariantTransfer> Found;
  auto AllSame = [](const LoopInvariance &Invariance, const CallExpr *Call) {
    return llvm::all_of(Call->arguments(), [&](const Expr *Arg) {
      return Invariance.originOf(Arg).has_value();
    });
  };
  llvm::SmallVector<const CallExpr *, 8> Transfers;
  collectTransfers(Body, Transfers);
  for (const CallExpr *Transfer : Transfers) {
    // The target too: a loop over devices copies to another each time.
    if (Loop && !AllSame(*this, Transfer))
      continue;
    std::optional<InvariantOrigin> Origin = originOf(callObject(Transfer));
    // A zero buffer the body then fills in place is not the same tensor at
    // the end of each pass: it must be made again.
    if (Origin && !isChangedInPlace(Transfer))
      Found.push_back({Transfer, Transfer, nullptr, *Origin});
  }
  if (!Loop)
    return Found;
  llvm::SmallVector<const CallExpr *, 8> Calls;
  collectHelperCalls(Body, Calls);
  for (const CallExpr *Call : Calls) {
    if (!AllSame(*this, Call) || isChangedInPlace(Call))
      continue;
    const FunctionDecl *Helper = Call->getDirectCallee()->getDefinition();
    LoopInvariance PerCall = sameArguments(Helper, SM);
    llvm::SmallVector<const CallExpr *, 4> HelperTransfers;
    collectTransfers(Helper->getBody(), HelperTransfers);
    for (const CallExpr *Transfer : HelperTransfers) {
      std::optional<InvariantOrigin> InHelper =
          PerCall.originOf(callObject(Transfer));
      const auto *Param =
          InHelper ? dyn_cast_or_null<ParmVarDecl>(InHelper->Holder) : nullptr;
      unsigned Index =
          Param ? firstParameterArgument(Call) + Param->getFunctionScopeIndex()
                : Call->getNumArgs();
      if (Index >= Call->getNumArgs() || !AllSame(PerCall, Transfer))
        continue;
      Found.push_back({Call, Transfer, Param, *originOf(Call->getArg(Index))});
      break; // One copy per call is enough to fix.
    }
  }
  return Found;
}

bool LoopInvariance::isChangedInPlace(const Expr *Result) const {
  if (!Body)
    return false;
  // The variables of the body the result is stored in.
  llvm::SmallVector<const VarDecl *, 2> Stored;
  auto StoresResult = [Result](const Expr *Value) {
    return Value && ignoreValuePreserving(Value) == Result;
  };
  forEachStmt(Body, [&](const Stmt *S) {
    if (const auto *Decls = dyn_cast<DeclStmt>(S))
      for (const Decl *D : Decls->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D);
            Var && StoresResult(Var->getInit()))
          Stored.push_back(Var);
    const Expr *Target = nullptr, *Value = nullptr;
    if (const auto *Assign = dyn_cast<BinaryOperator>(S);
        Assign && Assign->getOpcode() == BO_Assign)
      Target = Assign->getLHS(), Value = Assign->getRHS();
    else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
             Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
      Target = Op->getArg(0), Value = Op->getArg(1);
    if (Target && StoresResult(Value))
      if (const auto *Ref =
              dyn_cast<DeclRefExpr>(Target->IgnoreParenImpCasts()))
        if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
          Stored.push_back(Var);
  });
  return llvm::any_of(Stored, [&](const VarDecl *Var) {
    // `buf[i] = v` and `buf.select(0, i).copy_(v)` write a part of it.
    auto NamesPart = [Var](const Expr *E) {
      const Expr *Whole = E ? viewedStorage(E) : nullptr;
      const auto *Ref = dyn_cast_or_null<DeclRefExpr>(
          Whole ? ignoreValuePreserving(Whole)->IgnoreParenImpCasts()
                : nullptr);
      return Ref && Ref->getDecl() == Var;
    };
    return changesIn(Body, NamesPart, nullptr, /*Assignments=*/false);
  });
}

bool LoopInvariance::isSetBeforeBody(const VarDecl *Var) const {
  // A parameter: whatever its callers give, unless they give the same each
  // time.
  if (GivenParameters && isa<ParmVarDecl>(Var))
    return Var->getDeclContext() ==
           static_cast<const DeclContext *>(GivenParameters);
  // Declared in the loop's header: the loop's own variable.
  return Loop && !rangeContains(SM, Loop->getSourceRange(), Var->getLocation());
}

std::optional<InvariantOrigin>
LoopInvariance::originOf(const Expr *E) const {
  if (!Body)
    return std::nullopt;
  return originOf(E, 0);
}

std::optional<InvariantOrigin>
LoopInvariance::originOfVariable(const VarDecl *Var, unsigned Depth) const {
  auto NamesVar = [Var](const Expr *E) {
    const auto *Ref = dyn_cast_or_null<DeclRefExpr>(
        E ? ignoreValuePreserving(E)->IgnoreParenImpCasts() : nullptr);
    return Ref && Ref->getDecl() == Var;
  };
  // `torch::kFloat`, a table of constants.
  if (Var->hasGlobalStorage())
    return Var->getType().isConstQualified() || Var->isConstexpr()
               ? std::optional<InvariantOrigin>(InvariantOrigin{})
               : std::nullopt;
  if (changesIn(Body, NamesVar))
    return std::nullopt;
  // A variable of the loop's body holds what its initializer gives, built
  // again in each iteration.
  if (isDeclaredInBody(Var))
    return Var->getInit() ? originOf(Var->getInit(), Depth + 1) : std::nullopt;
  if (!isSetBeforeBody(Var))
    return std::nullopt;
  InvariantOrigin Origin;
  if (isTensorType(Var->getType().getNonReferenceType())) {
    // A tensor created to require grad is trained: an optimizer changes it
    // in place, out of sight.
    if (containsCallWhere(Var->getInit(), [](const CallExpr *Call) {
          return classifyCall(Call) == TorchCallKind::RequiresGrad;
        }))
      return std::nullopt;
    Origin.Holder = Var;
  }
  return Origin;
}

std::optional<InvariantOrigin>
LoopInvariance::originOfCall(const CallExpr *Call, unsigned Depth) const {
  TorchCallKind Kind = classifyCall(Call);
  if (Kind == TorchCallKind::FromBlob) {
    // Wraps the same memory again: invariant while nothing in the loop
    // writes it (the from_blob's own `buf.data()` aside).
    const auto *Memory = dyn_cast_or_null<DeclRefExpr>(
        wrappedHostMemory(Call) ? wrappedHostMemory(Call)->IgnoreParenImpCasts()
                                : nullptr);
    const auto *Buffer = Memory ? dyn_cast<VarDecl>(Memory->getDecl()) : nullptr;
    if (!Buffer || !Buffer->isLocalVarDeclOrParm() ||
        isDeclaredInBody(Buffer) || !isSetBeforeBody(Buffer) ||
        changesIn(
            Body,
            [Buffer](const Expr *E) {
              const auto *Ref = dyn_cast_or_null<DeclRefExpr>(
                  E ? E->IgnoreParenImpCasts() : nullptr);
              return Ref && Ref->getDecl() == Buffer;
            },
            Call))
      return std::nullopt;
    llvm::SmallVector<std::optional<InvariantOrigin>, 4> Shape;
    for (unsigned I = 1; I < Call->getNumArgs(); ++I)
      Shape.push_back(originOf(Call->getArg(I), Depth + 1));
    if (!joinParts(Shape))
      return std::nullopt;
    return InvariantOrigin{Buffer, Call};
  }
  llvm::SmallVector<std::optional<InvariantOrigin>, 4> Parts;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
    // Another class's const method (`img.size()`) reads what it is given.
    const CXXMethodDecl *Method = Member->getMethodDecl();
    if (!isRepeatableLibTorchCall(Call) && (!Method || !Method->isConst()))
      return std::nullopt;
    Parts.push_back(originOf(Member->getImplicitObjectArgument(), Depth + 1));
  } else if (!isRepeatableLibTorchCall(Call)) {
    return std::nullopt;
  }
  for (const Expr *Arg : Call->arguments())
    Parts.push_back(originOf(Arg, Depth + 1));
  std::optional<InvariantOrigin> Origin = joinParts(Parts);
  if (Origin && !Origin->Rebuilt &&
      (Kind == TorchCallKind::Factory || Kind == TorchCallKind::TensorLiteral))
    Origin->Rebuilt = Call;
  return Origin;
}

std::optional<InvariantOrigin> LoopInvariance::originOf(const Expr *E,
                                                        unsigned Depth) const {
  if (!E || Depth > MaxInvarianceDepth)
    return std::nullopt;
  std::optional<InvariantOrigin> Origin = originOfExpression(
      ignoreValuePreserving(E)->IgnoreParenImpCasts(), Depth);
  // A size or a count read off a tensor (`label.size(0)`) carries none of
  // its data: the tensor built from it is not that tensor.
  if (Origin && !isTensorType(E->getType().getNonReferenceType()))
    Origin->Holder = nullptr;
  return Origin;
}

std::optional<InvariantOrigin>
LoopInvariance::originOfExpression(const Expr *E, unsigned Depth) const {
  if (isa<IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr, CharacterLiteral,
          StringLiteral, CXXNullPtrLiteralExpr, CXXDefaultArgExpr,
          UnaryExprOrTypeTraitExpr, CXXScalarValueInitExpr,
          ImplicitValueInitExpr>(E))
    return InvariantOrigin{};
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    if (isa<EnumConstantDecl>(Ref->getDecl()))
      return InvariantOrigin{};
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      return originOfVariable(Var, Depth);
    return std::nullopt;
  }
  // A member of the object a method runs on, which the loop neither
  // changes by name nor through a method of the object. Per call, another
  // method may have changed it in between.
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
    if (!Field || !Loop || !isThis(Member->getBase()) ||
        mayChangeThisObject(Body) ||
        changesIn(Body, [Field](const Expr *Part) {
          const auto *Named = dyn_cast_or_null<MemberExpr>(
              Part ? Part->IgnoreParenImpCasts() : nullptr);
          return Named && Named->getMemberDecl() == Field &&
                 isThis(Named->getBase());
        }))
      return std::nullopt;
    InvariantOrigin Origin;
    if (isTensorType(Field->getType().getNonReferenceType())) {
      // A module's tensor member may be a parameter or a buffer, which
      // training changes in place.
      if (isModuleClass(dyn_cast<CXXRecordDecl>(Field->getParent())))
        return std::nullopt;
      Origin.Holder = Field;
    }
    return Origin;
  }
  llvm::SmallVector<std::optional<InvariantOrigin>, 4> Parts;
  if (const auto *List = dyn_cast<InitListExpr>(E)) {
    for (const Expr *Init : List->inits())
      Parts.push_back(originOf(Init, Depth + 1));
    return joinParts(Parts);
  }
  if (const auto *List = dyn_cast<CXXStdInitializerListExpr>(E))
    return originOf(List->getSubExpr(), Depth + 1);
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    for (const Expr *Arg : Construct->arguments())
      Parts.push_back(originOf(Arg, Depth + 1));
    return joinParts(Parts);
  }
  if (const auto *Unary = dyn_cast<UnaryOperator>(E))
    return Unary->isIncrementDecrementOp()
               ? std::nullopt
               : originOf(Unary->getSubExpr(), Depth + 1);
  if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
    if (Binary->isAssignmentOp())
      return std::nullopt;
    Parts = {originOf(Binary->getLHS(), Depth + 1),
             originOf(Binary->getRHS(), Depth + 1)};
    return joinParts(Parts);
  }
  if (const auto *Choice = dyn_cast<ConditionalOperator>(E)) {
    Parts = {originOf(Choice->getCond(), Depth + 1),
             originOf(Choice->getTrueExpr(), Depth + 1),
             originOf(Choice->getFalseExpr(), Depth + 1)};
    return joinParts(Parts);
  }
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
    return originOf(Cast->getSubExpr(), Depth + 1);
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return originOfCall(Call, Depth);
  return std::nullopt;
}

} // namespace torchtidy
