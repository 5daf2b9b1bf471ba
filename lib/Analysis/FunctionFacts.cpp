//===--- FunctionFacts.cpp - Lexical facts about one function body --------===//

#include "Analysis/FunctionFacts.h"
#include "Model/TorchApi.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace torchtidy {

std::optional<StorageKey> storageKeyOf(const Expr *E) {
  if (!E)
    return std::nullopt;
  E = ignoreValuePreserving(E)->IgnoreParenImpCasts();
  // `*model`: the module the handle `model` holds.
  if (const Expr *Handle = dereferencedModuleHandle(E))
    return storageKeyOf(Handle);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (isa<VarDecl>(Ref->getDecl()) || isa<BindingDecl>(Ref->getDecl()))
      return StorageKey{Ref->getDecl(), nullptr};
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
    if (!Field)
      return std::nullopt;
    const Expr *Base = Member->getBase()->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(Base))
      return StorageKey{nullptr, Field};
    if (const auto *BaseRef = dyn_cast<DeclRefExpr>(Base))
      return StorageKey{BaseRef->getDecl(), Field};
  }
  return std::nullopt;
}

/// Whether S itself, not counting what is under it, may change D: assigns
/// it, increments it, calls a non-const method on it or passes it by
/// non-const reference.
static bool modifiesDirectly(const Stmt *S, const ValueDecl *D) {
  auto Names = [D](const Expr *E) {
    const auto *Ref =
        dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
    return Ref && Ref->getDecl() == D;
  };
  if (const auto *Op = dyn_cast<BinaryOperator>(S))
    return Op->isAssignmentOp() && Names(Op->getLHS());
  if (const auto *Op = dyn_cast<UnaryOperator>(S))
    return Op->isIncrementDecrementOp() && Names(Op->getSubExpr());
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
      Op && Op->isAssignmentOp() && Names(Op->getArg(0)))
    return true;
  // Element access through a non-const object picks the non-const
  // overload of `at`, `front`, `back`: it reads all the same.
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S))
    if (const CXXMethodDecl *Method = Call->getMethodDecl();
        Method &&
        !(Method->getIdentifier() &&
          llvm::is_contained({"at", "front", "back", "begin", "end", "data"},
                             Method->getName())) &&
        !Method->isConst() && Names(Call->getImplicitObjectArgument()))
      return true;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      for (unsigned I = 0;
           I < std::min(Call->getNumArgs(), Callee->getNumParams()); ++I) {
        QualType T = Callee->getParamDecl(I)->getType();
        if (T->isReferenceType() &&
            !T.getNonReferenceType().isConstQualified() &&
            Names(Call->getArg(I)))
          return true;
      }
  return false;
}

bool isModifiedUnder(const ValueDecl *D, const Stmt *Root) {
  if (!D || !Root)
    return false;
  bool Modified = false;
  forEachStmt(Root, [&](const Stmt *S) { Modified |= modifiesDirectly(S, D); });
  return Modified;
}

/// Whether code under Root, but not under Excluded, may change D.
static bool isModifiedOutside(const ValueDecl *D, const Stmt *Root,
                              const Stmt *Excluded) {
  if (!Root || Root == Excluded)
    return false;
  if (modifiesDirectly(Root, D))
    return true;
  return llvm::any_of(Root->children(), [&](const Stmt *Child) {
    return isModifiedOutside(D, Child, Excluded);
  });
}

/// The constant value of E, if it has one.
static std::optional<llvm::APSInt> constantOf(const Expr *E,
                                              const ASTContext &Ctx) {
  Expr::EvalResult Result;
  if (!E || E->isValueDependent() || !E->EvaluateAsInt(Result, Ctx))
    return std::nullopt;
  return Result.Val.getInt();
}

/// The variable E names, ignoring conversions.
static const VarDecl *namedVariable(const Expr *E) {
  const auto *Ref =
      dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

/// How many times a `for (int i = A; i < B; ++i)` runs, for a counter
/// compared with `<`, `<=`, `>`, `>=` or `!=` and stepped by `++`, `--`,
/// `+= C` or `-= C` towards the bound. None for any other header.
static std::optional<uint64_t> countedTripCount(const ForStmt *For,
                                                const ASTContext &Ctx) {
  const VarDecl *Counter = nullptr;
  std::optional<llvm::APSInt> Start;
  if (const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
      Init && Init->isSingleDecl()) {
    Counter = dyn_cast<VarDecl>(Init->getSingleDecl());
    if (Counter)
      Start = constantOf(Counter->getInit(), Ctx);
  } else if (const auto *Assign =
                 dyn_cast_or_null<BinaryOperator>(For->getInit());
             Assign && Assign->getOpcode() == BO_Assign) {
    Counter = namedVariable(Assign->getLHS());
    Start = constantOf(Assign->getRHS(), Ctx);
  }
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      For->getCond() ? For->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Counter || !Start || !Cond || !Counter->getType()->isIntegerType() ||
      namedVariable(Cond->getLHS()) != Counter)
    return std::nullopt;
  std::optional<llvm::APSInt> Bound = constantOf(Cond->getRHS(), Ctx);
  // The step, signed: +1 for `++i`, -C for `i -= C`.
  std::optional<int64_t> Step;
  const Expr *Inc =
      For->getInc() ? For->getInc()->IgnoreParenImpCasts() : nullptr;
  if (const auto *Op = dyn_cast_or_null<UnaryOperator>(Inc);
      Op && Op->isIncrementDecrementOp() &&
      namedVariable(Op->getSubExpr()) == Counter)
    Step = Op->isIncrementOp() ? 1 : -1;
  else if (const auto *Op = dyn_cast_or_null<CompoundAssignOperator>(Inc);
           Op && namedVariable(Op->getLHS()) == Counter &&
           (Op->getOpcode() == BO_AddAssign || Op->getOpcode() == BO_SubAssign))
    if (std::optional<llvm::APSInt> By = constantOf(Op->getRHS(), Ctx);
        By && By->getSignificantBits() < 63 && By->getExtValue() > 0)
      Step = Op->getOpcode() == BO_AddAssign ? By->getExtValue()
                                             : -By->getExtValue();
  if (!Bound || !Step || Start->getSignificantBits() > 62 ||
      Bound->getSignificantBits() > 62 ||
      isModifiedUnder(Counter, For->getBody()))
    return std::nullopt;
  int64_t From = Start->getExtValue(), To = Bound->getExtValue();
  BinaryOperatorKind Compare = Cond->getOpcode();
  bool Upward = *Step > 0;
  if (Compare == BO_LE || Compare == BO_GE)
    To += Upward ? 1 : -1;
  bool TowardsBound =
      Upward ? (Compare == BO_LT || Compare == BO_LE || Compare == BO_NE)
             : (Compare == BO_GT || Compare == BO_GE || Compare == BO_NE);
  if (!TowardsBound)
    return std::nullopt;
  int64_t Distance = Upward ? To - From : From - To;
  int64_t Stride = Upward ? *Step : -*Step;
  if (Distance <= 0)
    return 0;
  // `!=` that steps over its bound never stops where it is meant to.
  if (Compare == BO_NE && Distance % Stride != 0)
    return std::nullopt;
  return static_cast<uint64_t>((Distance + Stride - 1) / Stride);
}

/// How many elements a range-for goes over, when its range says so.
static std::optional<uint64_t> rangeTripCount(const CXXForRangeStmt *For) {
  const Expr *Range = For->getRangeInit();
  if (!Range)
    return std::nullopt;
  Range = Range->IgnoreImplicit();
  if (const auto *List = dyn_cast<CXXStdInitializerListExpr>(Range))
    Range = List->getSubExpr()->IgnoreImplicit();
  if (const auto *List = dyn_cast<InitListExpr>(Range))
    return List->getNumInits();
  QualType Type = Range->getType().getNonReferenceType();
  if (const auto *Array =
          dyn_cast<ConstantArrayType>(Type.getCanonicalType().getTypePtr()))
    return Array->getSize().getZExtValue();
  return std::nullopt;
}

/// `do { ... } while (false)`, the macro idiom (AT_ASSERT): runs once.
static bool runsOnce(const DoStmt *Do, const ASTContext &Ctx) {
  const Expr *Cond = Do->getCond();
  if (!Cond || Cond->isValueDependent())
    return false;
  std::optional<llvm::APSInt> Value = Cond->getIntegerConstantExpr(Ctx);
  return Value && Value->isZero();
}

bool runsAFewTimes(const Stmt *Loop, const ASTContext &Ctx) {
  std::optional<uint64_t> Trips;
  if (const auto *For = dyn_cast_or_null<ForStmt>(Loop))
    Trips = countedTripCount(For, Ctx);
  else if (const auto *For = dyn_cast_or_null<CXXForRangeStmt>(Loop))
    Trips = rangeTripCount(For);
  else if (const auto *Do = dyn_cast_or_null<DoStmt>(Loop))
    Trips = runsOnce(Do, Ctx) ? std::optional<uint64_t>(1) : std::nullopt;
  return Trips && *Trips <= MaxFewIterations;
}

const Stmt *loopBody(const Stmt *Loop) {
  if (const auto *For = dyn_cast<ForStmt>(Loop))
    return For->getBody();
  if (const auto *RangeFor = dyn_cast<CXXForRangeStmt>(Loop))
    return RangeFor->getBody();
  if (const auto *While = dyn_cast<WhileStmt>(Loop))
    return While->getBody();
  if (const auto *Do = dyn_cast<DoStmt>(Loop))
    return Do->getBody();
  return nullptr;
}

bool containsRepeatedLoop(const Stmt *S, const ASTContext &Ctx) {
  bool Found = false;
  forEachStmt(S, [&](const Stmt *Node) {
    Found |= isa<ForStmt, CXXForRangeStmt, WhileStmt, DoStmt>(Node) &&
             !runsAFewTimes(Node, Ctx);
  });
  return Found;
}

static bool isBackward(const CallExpr *Call) {
  return classifyCall(Call) == TorchCallKind::Backward;
}

bool FunctionFacts::hasLoopOverData() const {
  return llvm::any_of(Loops, [](const Stmt *Loop) {
    return containsCallWhere(Loop, [](const CallExpr *Call) {
      return classifyCall(Call) == TorchCallKind::Migration || isBackward(Call);
    });
  });
}

/// Collects every StorageKey mentioned under a statement. With
/// SkipNumbers, not under a subexpression that is a plain number: what
/// `total.item<double>() / n` hands on is a value, not `total`.
static void collectStorage(const Stmt *S, llvm::DenseSet<StorageKey> &Out,
                           bool SkipNumbers = false) {
  if (!S)
    return;
  if (const auto *E = dyn_cast<Expr>(S); SkipNumbers && E &&
                                         !E->isTypeDependent() &&
                                         E->getType()->isArithmeticType())
    return;
  if (const auto *E = dyn_cast<Expr>(S))
    if (std::optional<StorageKey> Key = storageKeyOf(E)) {
      Out.insert(*Key);
      if (Key->second && Key->first) // batch.data also mentions batch.
        Out.insert({Key->first, nullptr});
    }
  for (const Stmt *Child : S->children())
    collectStorage(Child, Out, SkipNumbers);
}

class FactsCollector : public RecursiveASTVisitor<FactsCollector> {
public:
  FactsCollector(FunctionFacts &Facts, SourceLocation BodyEnd)
      : Facts(Facts), BodyEnd(BodyEnd) {}

  bool VisitForStmt(ForStmt *S) {
    addDiscardedStatement(S->getInit());
    addDiscardedStatement(S->getInc());
    addDiscardedStatement(S->getBody());
    return addLoop(S);
  }
  bool VisitWhileStmt(WhileStmt *S) {
    addDiscardedStatement(S->getBody());
    return addLoop(S);
  }
  bool VisitDoStmt(DoStmt *S) {
    addDiscardedStatement(S->getBody());
    // `do { ... } while (false)`, the macro idiom (AT_ASSERT), is no loop.
    return runsOnce(S, Facts.Ctx) ? true : addLoop(S);
  }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
    addDiscardedStatement(S->getBody());
    if (const VarDecl *LoopVar = S->getLoopVariable())
      Facts.RangeForLoopVariables[LoopVar] = S;
    return addLoop(S);
  }
  bool VisitSwitchCase(SwitchCase *Case) {
    addDiscardedStatement(Case->getSubStmt());
    return true;
  }
  bool VisitLabelStmt(LabelStmt *Label) {
    addDiscardedStatement(Label->getSubStmt());
    return true;
  }

  bool VisitCompoundStmt(CompoundStmt *Block) {
    for (Stmt *Child : Block->body()) {
      addDiscardedStatement(Child);
      // A guard declared here sets autograd recording until the block ends.
      if (auto *Decl = dyn_cast<DeclStmt>(Child))
        for (const clang::Decl *D : Decl->decls())
          if (const auto *Var = dyn_cast<VarDecl>(D))
            addGradModeRegion(gradModeSetByGuard(*Var, Facts.Ctx),
                              Decl->getEndLoc(), Block->getRBracLoc());
    }
    return true;
  }

  bool VisitIfStmt(IfStmt *If) {
    addDiscardedStatement(If->getThen());
    addDiscardedStatement(If->getElse());
    if (const VarDecl *Flag = flagClosedBy(If))
      Facts.LatchedBranches.push_back({If, Flag});
    if (usesRemainder(If->getCond())) {
      Facts.PeriodicBranches.push_back(If->getThen()->getSourceRange());
      if (const Stmt *Else = If->getElse())
        Facts.PeriodicBranches.push_back(Else->getSourceRange());
    }
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    if (classifyCall(Call) == TorchCallKind::Backward)
      collectStorage(Call, Facts.BackpropagatedOrEscaping);
    // GradMode::set_enabled() holds past its block, to the function's end
    // as far as this function shows.
    addGradModeRegion(gradModeSetByCall(*Call, Facts.Ctx), Call->getEndLoc(),
                      BodyEnd);
    if (ModeSwitch Switch = modeSwitchOf(Call); Switch != ModeSwitch::None)
      Facts.ModeSwitches.push_back({Call->getBeginLoc(), Switch});
    return true;
  }

  bool VisitVarDecl(VarDecl *Var) {
    if (Var->isLocalVarDecl())
      collectStorage(Var->getInit(), Facts.ComputedFrom[Var]);
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *Binary) {
    if (Binary->isAssignmentOp())
      noteAssignment(Binary->getLHS(), Binary->getRHS());
    // `(a.to(d), b)`: the left side's value is thrown away, whatever
    // becomes of the comma's.
    if (Binary->getOpcode() == BO_Comma)
      addDiscarded(Binary->getLHS());
    return true;
  }

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Call) {
    if (Call->isAssignmentOp() && Call->getNumArgs() == 2)
      noteAssignment(Call->getArg(0), Call->getArg(1));
    return true;
  }

  bool VisitReturnStmt(ReturnStmt *Return) {
    collectStorage(Return->getRetValue(), Facts.BackpropagatedOrEscaping,
                   /*SkipNumbers=*/true);
    return true;
  }

private:
  /// A local `bool` variable that E names, or null.
  static const VarDecl *localFlag(const Expr *E) {
    const VarDecl *Var = namedVariable(E);
    return Var && Var->hasLocalStorage() && !Var->isStaticLocal() &&
                   Var->getType()->isBooleanType()
               ? Var
               : nullptr;
  }

  /// The flags a condition needs, each with the value it must have, for
  /// the branch to run: `first`, `!done`, and those of each side of `&&`.
  static void collectRequiredFlags(
      const Expr *Condition,
      llvm::SmallVectorImpl<std::pair<const VarDecl *, bool>> &Out) {
    Condition = Condition->IgnoreParenImpCasts();
    if (const auto *And = dyn_cast<BinaryOperator>(Condition);
        And && And->getOpcode() == BO_LAnd) {
      collectRequiredFlags(And->getLHS(), Out);
      collectRequiredFlags(And->getRHS(), Out);
    } else if (const auto *Not = dyn_cast<UnaryOperator>(Condition);
               Not && Not->getOpcode() == UO_LNot) {
      if (const VarDecl *Flag = localFlag(Not->getSubExpr()))
        Out.push_back({Flag, false});
    } else if (const VarDecl *Flag = localFlag(Condition)) {
      Out.push_back({Flag, true});
    }
  }

  /// Whether S is `Flag = Value;` with a literal value.
  static bool setsFlag(const Stmt *S, const VarDecl *Flag, bool Value) {
    const auto *Assign = dyn_cast_or_null<BinaryOperator>(S);
    if (!Assign || Assign->getOpcode() != BO_Assign ||
        namedVariable(Assign->getLHS()) != Flag)
      return false;
    const Expr *Set = Assign->getRHS()->IgnoreParenImpCasts();
    if (const auto *Literal = dyn_cast<CXXBoolLiteralExpr>(Set))
      return Literal->getValue() == Value;
    if (const auto *Literal = dyn_cast<IntegerLiteral>(Set))
      return Literal->getValue().isZero() != Value;
    return false;
  }

  /// The flag an `if` closes behind it: its condition needs the flag, and
  /// its branch, whenever it runs, sets the flag the other way (`if (first)
  /// { ...; first = false; }`, `if (!done) { ...; done = true; }`).
  static const VarDecl *flagClosedBy(const IfStmt *If) {
    if (!If->getCond() || If->getConditionVariable())
      return nullptr;
    llvm::SmallVector<std::pair<const VarDecl *, bool>, 2> Required;
    collectRequiredFlags(If->getCond(), Required);
    const Stmt *Then = If->getThen();
    for (auto [Flag, Value] : Required) {
      if (setsFlag(Then, Flag, !Value))
        return Flag;
      if (const auto *Block = dyn_cast<CompoundStmt>(Then))
        if (llvm::any_of(Block->body(), [&, Flag = Flag,
                                         Value = Value](const Stmt *Statement) {
              return setsFlag(Statement, Flag, !Value);
            }))
          return Flag;
    }
    return nullptr;
  }

  static bool usesRemainder(const Stmt *S) {
    if (!S)
      return false;
    if (const auto *Binary = dyn_cast<BinaryOperator>(S);
        Binary && Binary->getOpcode() == BO_Rem)
      return true;
    for (const Stmt *Child : S->children())
      if (usesRemainder(Child))
        return true;
    return false;
  }

  void addDiscardedStatement(const Stmt *S) {
    if (const auto *E = dyn_cast_or_null<Expr>(S))
      addDiscarded(E);
  }

  /// E's value is thrown away, and with it those of the operands that give
  /// it its value: both sides of a comma, both arms of a `?:`, what a cast
  /// to void casts.
  void addDiscarded(const Expr *E, const ExplicitCastExpr *VoidCast = nullptr) {
    E = ignoreValuePreserving(E);
    if (!E || !Facts.DiscardedValues.try_emplace(E, VoidCast).second)
      return;
    if (const auto *Comma = dyn_cast<BinaryOperator>(E);
        Comma && Comma->getOpcode() == BO_Comma) {
      addDiscarded(Comma->getLHS());
      addDiscarded(Comma->getRHS());
    } else if (const auto *Choice = dyn_cast<ConditionalOperator>(E)) {
      addDiscarded(Choice->getTrueExpr());
      addDiscarded(Choice->getFalseExpr());
    } else if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E);
               Cast && Cast->getType()->isVoidType()) {
      addDiscarded(Cast->getSubExpr(), Cast);
    }
  }

  void noteAssignment(const Expr *Target, const Expr *Value) {
    std::optional<StorageKey> Key = storageKeyOf(Target);
    if (Key && Key->first && !Key->second)
      collectStorage(Value, Facts.ComputedFrom[Key->first]);
  }

  bool addLoop(Stmt *Loop) {
    Facts.Loops.push_back(Loop);
    return true;
  }

  /// A setting the tool cannot see counts as off: a finding about the graph
  /// must not rest on it.
  void addGradModeRegion(GradModeSetting Setting, SourceLocation Begin,
                         SourceLocation End) {
    if (Setting != GradModeSetting::None)
      Facts.GradModeRegions.push_back(
          {SourceRange(Begin, End), Setting == GradModeSetting::On});
  }

  FunctionFacts &Facts;
  SourceLocation BodyEnd;
};

FunctionFacts::FunctionFacts(const Stmt *Body, ASTContext &Ctx)
    : Ctx(Ctx), Body(Body) {
  if (Body)
    FactsCollector(*this, Body->getEndLoc())
        .TraverseStmt(const_cast<Stmt *>(Body));
  // What a backpropagated variable was computed from is backpropagated too.
  llvm::SmallVector<StorageKey, 16> Pending(BackpropagatedOrEscaping.begin(),
                                            BackpropagatedOrEscaping.end());
  while (!Pending.empty()) {
    StorageKey Key = Pending.pop_back_val();
    if (!Key.first || Key.second)
      continue;
    auto Sources = ComputedFrom.find(Key.first);
    if (Sources == ComputedFrom.end())
      continue;
    for (StorageKey Source : Sources->second)
      if (BackpropagatedOrEscaping.insert(Source).second)
        Pending.push_back(Source);
  }
}

bool rangeContains(const SourceManager &SM, SourceRange Outer,
                   SourceLocation Loc) {
  SourceLocation Begin = SM.getExpansionLoc(Outer.getBegin());
  SourceLocation End = SM.getExpansionLoc(Outer.getEnd());
  Loc = SM.getExpansionLoc(Loc);
  if (Begin.isInvalid() || End.isInvalid() || Loc.isInvalid())
    return false;
  return !SM.isBeforeInTranslationUnit(Loc, Begin) &&
         !SM.isBeforeInTranslationUnit(End, Loc);
}

bool FunctionFacts::contains(SourceRange Outer, SourceLocation Loc) const {
  return rangeContains(Ctx.getSourceManager(), Outer, Loc);
}

bool FunctionFacts::isInNoGradScope(const Stmt *S) const {
  // The setting made last before S, among those whose region covers it,
  // holds: a guard nearer S, or a later set_enabled(). (A guard's end
  // restores what was set before it, even by a set_enabled() inside its
  // block; that is not followed.)
  const GradModeRegion *Innermost = nullptr;
  const SourceManager &SM = Ctx.getSourceManager();
  for (const GradModeRegion &Region : GradModeRegions)
    if (contains(Region.Range, S->getBeginLoc()) &&
        (!Innermost || SM.isBeforeInTranslationUnit(Innermost->Range.getBegin(),
                                                    Region.Range.getBegin())))
      Innermost = &Region;
  return Innermost && !Innermost->Records;
}

ModeSwitch FunctionFacts::modeSetBefore(const Stmt *S) const {
  const SourceManager &SM = Ctx.getSourceManager();
  const ModeSwitchSite *Last = nullptr;
  for (const ModeSwitchSite &Site : ModeSwitches)
    if (SM.isBeforeInTranslationUnit(Site.Loc, S->getBeginLoc()) &&
        (!Last || SM.isBeforeInTranslationUnit(Last->Loc, Site.Loc)))
      Last = &Site;
  return Last ? Last->Switch : ModeSwitch::None;
}

bool FunctionFacts::isEvaluationPass(const Stmt *Loop,
                                     ModeSwitch ModeOnEntry) const {
  if (!Loop)
    return false;
  // A validation loop after `model->eval()` often keeps no guard: it builds
  // graphs it never uses, but it is no less a pass that reads each result.
  ModeSwitch Mode = modeSetBefore(Loop);
  if (Mode == ModeSwitch::None)
    Mode = ModeOnEntry;
  return (isInNoGradScope(Loop) || Mode == ModeSwitch::Evaluation) &&
         !containsCallWhere(Loop, isBackward) &&
         containsCallWhere(Loop, [](const CallExpr *Call) {
           if (classifyCall(Call) != TorchCallKind::Migration)
             return false; // A tensor's, not a module's.
           TransferTarget Target = transferTarget(Call);
           return Target == TransferTarget::OffHost ||
                  Target == TransferTarget::Unknown;
         });
}

bool FunctionFacts::isOnEvaluationBranch(const Stmt *S,
                                         const Stmt *Loop) const {
  for (const Stmt *Child = S, *Parent = parentOf(S); Parent && Child != Loop;
       Child = Parent, Parent = parentOf(Parent)) {
    const auto *Branch = dyn_cast<IfStmt>(Parent);
    if (!Branch || Child == Branch->getCond())
      continue;
    const Stmt *Other =
        Child == Branch->getThen() ? Branch->getElse() : Branch->getThen();
    if (Other && containsCallWhere(Other, isBackward) &&
        !containsCallWhere(Child, isBackward))
      return true;
  }
  return false;
}

/// Assertions of the C library, LibTorch, glog and GoogleTest.
static bool isAssertionMacro(llvm::StringRef Name) {
  return Name == "assert" || Name == "CHECK" || Name.starts_with("AT_ASSERT") ||
         Name.starts_with("TORCH_CHECK") ||
         Name.starts_with("TORCH_INTERNAL_ASSERT") ||
         Name.starts_with("ASSERT_") || Name.starts_with("EXPECT_");
}

bool FunctionFacts::isInAssertion(const Expr *E) const {
  const SourceManager &SM = Ctx.getSourceManager();
  for (SourceLocation Loc = E->getBeginLoc(); Loc.isMacroID();
       Loc = SM.getImmediateMacroCallerLoc(Loc))
    if (isAssertionMacro(
            Lexer::getImmediateMacroName(Loc, SM, Ctx.getLangOpts())))
      return true;
  return false;
}

HostUse FunctionFacts::hostUseOf(const Expr *Copied) const {
  return hostUseOf(Copied, 0);
}

/// What a call given the value as an argument does with it; none when it
/// passes the value on (std::max, std::abs, std::isnan).
static std::optional<HostUse> useAsArgument(const FunctionDecl *Callee) {
  if (!Callee)
    return HostUse::Kept;
  // An op's size, index or scalar: the host builds the op with it.
  if (isInLibTorchNamespace(Callee))
    return HostUse::Needed;
  bool IsPrintf = Callee->getIdentifier() && Callee->getName().contains("printf");
  const auto *Namespace = dyn_cast<NamespaceDecl>(
      Callee->getDeclContext()->getEnclosingNamespaceContext());
  if (!Namespace ||
      !(Namespace->isStdNamespace() || Namespace->isInStdNamespace()))
    return IsPrintf ? HostUse::Kept : HostUse::Needed; // The program's logic.
  // A container's method or a printf keeps it.
  if (isa<CXXMethodDecl>(Callee) || !Callee->getIdentifier() || IsPrintf)
    return HostUse::Kept;
  return std::nullopt;
}

const Stmt *FunctionFacts::parentOf(const Stmt *S) const {
  if (Parents.empty() && Body) {
    llvm::SmallVector<const Stmt *, 64> Pending = {Body};
    while (!Pending.empty()) {
      const Stmt *Next = Pending.pop_back_val();
      for (const Stmt *Child : Next->children())
        if (Child) {
          Parents[Child] = Next;
          Pending.push_back(Child);
        }
    }
  }
  return Parents.lookup(S);
}

HostUse FunctionFacts::hostUseOf(const Expr *Copied, unsigned Depth) const {
  if (!Copied)
    return HostUse::Kept;
  if (isInAssertion(Copied))
    return HostUse::Asserted;
  // Stored in a local variable: what each use of it does, the most pressing.
  auto UsesOf = [&](const ValueDecl *D) {
    HostUse Use = HostUse::Kept;
    const auto *Var = dyn_cast_or_null<VarDecl>(D);
    if (!Var || !Var->hasLocalStorage() || Depth >= 3)
      return Use;
    forEachStmt(Body, [&](const Stmt *S) {
      const auto *Ref = dyn_cast<DeclRefExpr>(S);
      if (Ref && Ref->getDecl() == Var)
        Use = std::max(Use, hostUseOf(Ref, Depth + 1));
    });
    return Use;
  };
  const Expr *Current = Copied;
  while (const Stmt *Parent = parentOf(Current)) {
    if (const auto *Decl = dyn_cast<DeclStmt>(Parent)) {
      for (const clang::Decl *D : Decl->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D);
            Var && Var->getInit() == Current)
          return UsesOf(Var);
      return HostUse::Kept;
    }
    if (const auto *Branch = dyn_cast<IfStmt>(Parent))
      return Branch->getCond() == Current ? HostUse::Needed : HostUse::Kept;
    if (const auto *Loop = dyn_cast<WhileStmt>(Parent))
      return Loop->getCond() == Current ? HostUse::Needed : HostUse::Kept;
    if (const auto *Loop = dyn_cast<DoStmt>(Parent))
      return Loop->getCond() == Current ? HostUse::Needed : HostUse::Kept;
    if (const auto *Loop = dyn_cast<ForStmt>(Parent))
      return Loop->getCond() == Current ? HostUse::Needed : HostUse::Kept;
    if (const auto *Switch = dyn_cast<SwitchStmt>(Parent))
      return Switch->getCond() == Current ? HostUse::Needed : HostUse::Kept;
    const auto *E = dyn_cast<Expr>(Parent);
    if (!E)
      return HostUse::Kept; // A statement of its own, a return.
    if (const auto *Op = dyn_cast<BinaryOperator>(E)) {
      if (Op->isCompoundAssignmentOp() || Op->getOpcode() == BO_Comma)
        return HostUse::Kept; // A running total.
      if (Op->getOpcode() == BO_Assign) {
        const auto *Target = dyn_cast<DeclRefExpr>(Op->getLHS()->IgnoreParens());
        return Target && Op->getRHS() == Current ? UsesOf(Target->getDecl())
                                                 : HostUse::Kept;
      }
    } else if (const auto *Choice = dyn_cast<ConditionalOperator>(E)) {
      if (Choice->getCond() == Current)
        return HostUse::Needed;
    } else if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E)) {
      return Subscript->getIdx() == Current ? HostUse::Needed : HostUse::Kept;
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
      if (Op->getOperator() == OO_Subscript)
        return Op->getArg(0) == Current ? HostUse::Kept : HostUse::Needed;
      // A stream, a total, an assignment to a member.
      if (Op->getOperator() == OO_LessLess || Op->isAssignmentOp())
        return HostUse::Kept;
    } else if (const auto *Call = dyn_cast<CallExpr>(E)) {
      if (Call->getCallee() == Current)
        return HostUse::Kept;
      if (std::optional<HostUse> Use = useAsArgument(Call->getDirectCallee()))
        return *Use;
    } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      const CXXRecordDecl *Built = Construct->getType()->getAsCXXRecordDecl();
      if (Built && isInLibTorchNamespace(Built))
        return HostUse::Needed; // A Slice, a size list.
    } else if (const auto *Op = dyn_cast<UnaryOperator>(E)) {
      if (Op->isIncrementDecrementOp())
        return HostUse::Kept;
    } else if (!isa<ImplicitCastExpr, ExplicitCastExpr, ParenExpr,
                    MaterializeTemporaryExpr, CXXBindTemporaryExpr,
                    ExprWithCleanups, InitListExpr,
                    CXXStdInitializerListExpr>(E)) {
      return HostUse::Kept;
    }
    // Arithmetic, a comparison, a conversion: the value goes on.
    Current = E;
  }
  return HostUse::Kept;
}

bool FunctionFacts::readsOutFinishedResult(const Expr *Copied,
                                           const Stmt *Loop) const {
  const Expr *Storage = hostIndexedStorage(Copied);
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(
      Storage ? Storage->IgnoreParenImpCasts() : nullptr);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || !Var->hasLocalStorage() || isDeclaredInside(Var, Loop) ||
      isModifiedInside(Var, Loop))
    return false;
  // A copy back to the host is the read-out itself, not work it waits for.
  return !containsCallWhere(Loop, [](const CallExpr *Call) {
    TorchCallKind Kind = classifyCall(Call);
    return Kind == TorchCallKind::ModuleForward || isBackward(Call) ||
           (Kind == TorchCallKind::Migration && !synchronizesWithHost(Call));
  });
}

bool FunctionFacts::isSameEveryIteration(const Expr *E,
                                         const Stmt *Loop) const {
  if (!E || !Loop)
    return false;
  E = E->IgnoreParenImpCasts();
  if (isa<IntegerLiteral, CharacterLiteral, CXXBoolLiteralExpr>(E))
    return true;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    if (isa<EnumConstantDecl>(Ref->getDecl()))
      return true;
    // A global or a member may change in any call the loop makes.
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    return Var && Var->hasLocalStorage() && !isDeclaredInside(Var, Loop) &&
           !isModifiedInside(Var, Loop);
  }
  if (const auto *Op = dyn_cast<BinaryOperator>(E))
    return !Op->isAssignmentOp() && !Op->isCompoundAssignmentOp() &&
           isSameEveryIteration(Op->getLHS(), Loop) &&
           isSameEveryIteration(Op->getRHS(), Loop);
  if (const auto *Op = dyn_cast<UnaryOperator>(E))
    return !Op->isIncrementDecrementOp() &&
           isSameEveryIteration(Op->getSubExpr(), Loop);
  return false;
}

const Stmt *FunctionFacts::runOnceLoopAround(const Stmt *S) const {
  for (const LatchedBranch &Branch : LatchedBranches) {
    const Stmt *Then = Branch.If->getThen();
    if (!contains(Then->getSourceRange(), S->getBeginLoc()))
      continue;
    // Set again elsewhere in the loop, the flag may open the branch again.
    const Stmt *Loop = innermostRepeatedLoopAround(Branch.If);
    if (Loop && !isModifiedOutside(Branch.Flag, Loop, Then))
      return Loop;
  }
  return nullptr;
}

bool FunctionFacts::isInPeriodicBranch(const Stmt *S) const {
  for (SourceRange Branch : PeriodicBranches)
    if (contains(Branch, S->getBeginLoc()))
      return true;
  return false;
}

const Stmt *FunctionFacts::innermostLoopAround(const Stmt *S) const {
  const Stmt *Innermost = nullptr;
  for (const Stmt *Loop : Loops)
    if (Loop != S && contains(Loop->getSourceRange(), S->getBeginLoc()) &&
        (!Innermost ||
         contains(Innermost->getSourceRange(), Loop->getBeginLoc())))
      Innermost = Loop;
  return Innermost;
}

const Stmt *FunctionFacts::innermostRepeatedLoopAround(const Stmt *S) const {
  // Outward from the innermost loop, past those of a few iterations.
  const Stmt *Loop = innermostLoopAround(S);
  while (Loop && runsAFewTimes(Loop, Ctx))
    Loop = innermostLoopAround(Loop);
  return Loop;
}

bool FunctionFacts::isDeclaredInside(const ValueDecl *D,
                                     const Stmt *Loop) const {
  return D && Loop && contains(Loop->getSourceRange(), D->getLocation());
}

bool FunctionFacts::isModifiedInside(const ValueDecl *D,
                                     const Stmt *Loop) const {
  return isModifiedUnder(D, Loop);
}

bool FunctionFacts::isDiscardedValue(const Expr *E) const {
  return DiscardedValues.contains(ignoreValuePreserving(E));
}

const ExplicitCastExpr *
FunctionFacts::voidCastDiscarding(const Expr *E) const {
  return DiscardedValues.lookup(ignoreValuePreserving(E));
}

bool FunctionFacts::isBackpropagatedOrEscapes(StorageKey Key) const {
  return BackpropagatedOrEscaping.contains(Key);
}

const CXXForRangeStmt *
FunctionFacts::rangeForDeclaring(const VarDecl *Var) const {
  return RangeForLoopVariables.lookup(Var);
}

} // namespace torchtidy
