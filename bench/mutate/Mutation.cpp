//===--- Mutation.cpp - Finding the sites of each bug class ---------------===//
//
// Each operator turns one correct idiom into the bug users write instead:
// the edit is the smallest one that leaves a program that still compiles, and
// the site must be one where the change is a real bug (a pinned tensor whose
// copy is asynchronous, a factory whose device came from forward()'s input),
// so that a mutant the checks stay silent on is a miss, not an equivalent.
//
//===----------------------------------------------------------------------===//

#include "Mutation.h"
#include "Model/TorchApi.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <optional>
#include <set>
#include <tuple>

using namespace clang;

namespace torchtidy::mutate {

const std::vector<MutationOperator> &mutationOperators() {
  static const std::vector<MutationOperator> Operators = {
      {"drop-target-migration", "libtorch-missing-target-migration",
       "a target's `.to(device)` removed: the labels stay on the host"},
      {"drop-input-migration", "libtorch-missing-target-migration",
       "a batch's `batch.data.to(device)` removed: the input stays on the "
       "host"},
      {"drop-model-migration", "libtorch-missing-target-migration",
       "a `model->to(device);` statement removed: the model stays on the "
       "host"},
      {"tensor-accumulation", "libtorch-graph-retaining-accumulation",
       "`total += loss.item<double>()` turned into a tensor accumulator, "
       "`total = total + loss`"},
      {"drop-registration", "libtorch-unregistered-module-member",
       "`m = register_module(\"m\", M(...))` turned into `m = M(...)`"},
      {"factory-drops-device", "libtorch-mixed-device-operands",
       "a factory in forward() loses the `x.options()`/`x.device()` argument "
       "taken from its input"},
      {"drop-pin-memory", "libtorch-non-blocking-without-pinned-memory",
       "`.pin_memory()` removed before a non_blocking copy"},
  };
  return Operators;
}

namespace {

llvm::StringRef expectedCheckOf(llvm::StringRef Operator) {
  for (const MutationOperator &Op : mutationOperators())
    if (Op.Name == Operator)
      return Op.ExpectedCheck;
  llvm_unreachable("unknown mutation operator");
}

/// The first parent of a node, seen through the implicit nodes around
/// temporaries and conversions.
DynTypedNode parentOf(const DynTypedNode &Node, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(Node);
  if (Parents.empty())
    return DynTypedNode();
  const DynTypedNode &Parent = Parents[0];
  if (const auto *E = Parent.get<Expr>())
    if (isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
            ExprWithCleanups, ParenExpr>(E))
      return parentOf(Parent, Ctx);
  return Parent;
}

/// Whether Holds(Node, Parent) for some ancestor Parent of S, below its
/// function, and Node the child of Parent on the way down to S.
bool anyEnclosing(
    const Stmt *S, ASTContext &Ctx,
    llvm::function_ref<bool(const DynTypedNode &, const DynTypedNode &)>
        Holds) {
  DynTypedNode Node = DynTypedNode::create(*S);
  for (DynTypedNode Parent = parentOf(Node, Ctx); !Parent.get<FunctionDecl>();
       Node = Parent, Parent = parentOf(Parent, Ctx)) {
    if (Parent.getNodeKind().isNone())
      return false;
    if (Holds(Node, Parent))
      return true;
  }
  return false;
}

/// Whether S runs under a guard that turns autograd off (or may), declared
/// before it in an enclosing block, or after a GradMode::set_enabled(false)
/// there: no graph is recorded, so a tensor accumulation keeps nothing
/// alive (an equivalent mutant).
bool isInNoGradScope(const Stmt *S, ASTContext &Ctx) {
  return anyEnclosing(
      S, Ctx, [&](const DynTypedNode &Node, const DynTypedNode &Parent) {
        const auto *Block = Parent.get<CompoundStmt>();
        if (!Block)
          return false;
        for (const Stmt *Child : Block->body()) {
          if (Child == Node.get<Stmt>())
            break;
          // GradMode::set_enabled(false) before S; one setting it on again
          // in between is not followed (a site skipped, never a mutant
          // that injects no bug).
          if (const auto *Call = dyn_cast<CallExpr>(Child))
            if (GradModeSetting Setting = gradModeSetByCall(*Call, Ctx);
                Setting == GradModeSetting::Off ||
                Setting == GradModeSetting::Unknown)
              return true;
          if (const auto *Decls = dyn_cast<DeclStmt>(Child))
            for (const Decl *D : Decls->decls())
              if (const auto *Var = dyn_cast<VarDecl>(D))
                if (GradModeSetting Setting = gradModeSetByGuard(*Var, Ctx);
                    Setting == GradModeSetting::Off ||
                    Setting == GradModeSetting::Unknown)
                  return true;
        }
        return false;
      });
}

/// Whether Condition holding means the device is CUDA (`device.is_cuda()`,
/// `x.is_cuda()`, or a const bool initialised from one), its negation
/// (`!device.is_cuda()`, `device.is_cpu()`), or neither.
std::optional<bool> conditionMeansCuda(const Expr *Condition) {
  Condition = Condition->IgnoreParenImpCasts();
  if (const auto *Not = dyn_cast<UnaryOperator>(Condition);
      Not && Not->getOpcode() == UO_LNot) {
    std::optional<bool> Inner = conditionMeansCuda(Not->getSubExpr());
    return Inner ? std::optional<bool>(!*Inner) : std::nullopt;
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Condition)) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (Var && Var->getType().isConstQualified() && Var->getInit())
      return conditionMeansCuda(Var->getInit());
    return std::nullopt;
  }
  const auto *Call = dyn_cast<CallExpr>(Condition);
  return Call ? testsForAcceleratorDevice(Call) : std::nullopt;
}

/// Whether S runs only when the device is not CUDA: the `else` of
/// `if (device.is_cuda())`. LibTorch's builds train on the CPU or on CUDA,
/// so the device there is the CPU and `.to(device)` copies nothing: dropping
/// it injects no bug (an equivalent mutant).
bool runsOnlyOffCuda(const Stmt *S, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  return anyEnclosing(
      S, Ctx, [&](const DynTypedNode &Node, const DynTypedNode &Parent) {
        const auto *If = Parent.get<IfStmt>();
        std::optional<bool> Cuda = If && If->getCond()
                                       ? conditionMeansCuda(If->getCond())
                                       : std::nullopt;
        if (!Cuda)
          return false;
        // Node may sit under implicit nodes of the branch, so it is placed by
        // where it starts.
        SourceLocation Start = Node.getSourceRange().getBegin();
        auto StartsIn = [&](const Stmt *Branch) {
          return Branch &&
                 !SM.isBeforeInTranslationUnit(Start, Branch->getBeginLoc()) &&
                 !SM.isBeforeInTranslationUnit(Branch->getEndLoc(), Start);
        };
        return *Cuda ? StartsIn(If->getElse()) : StartsIn(If->getThen());
      });
}

class SiteFinder : public RecursiveASTVisitor<SiteFinder> {
  using Base = RecursiveASTVisitor<SiteFinder>;

public:
  explicit SiteFinder(ASTContext &Ctx)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), LangOpts(Ctx.getLangOpts()) {}

  // Templated train loops are only typed in their instantiations; an edit
  // found there is an edit of the template's text, deduplicated later.
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) &&
        !SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
      return true;
    return Base::TraverseDecl(D);
  }

  bool TraverseCXXMethodDecl(CXXMethodDecl *Method) {
    Methods.push_back(Method);
    bool Continue = Base::TraverseCXXMethodDecl(Method);
    Methods.pop_back();
    return Continue;
  }

  bool VisitCallExpr(CallExpr *Call) {
    switch (classifyCall(Call)) {
    case TorchCallKind::Migration:
      visitTensorMigration(Call);
      break;
    case TorchCallKind::ModuleMigration:
      visitModuleMigration(Call);
      break;
    case TorchCallKind::Factory:
      visitFactory(Call);
      break;
    default:
      break;
    }
    if (isModuleRegistrationCall(Call))
      visitRegistration(Call);
    if (isPinMemoryCall(Call))
      PinCalls.push_back(Call);
    return true;
  }

  bool VisitVarDecl(VarDecl *Var) {
    if (const Expr *Init = Var->getInit())
      if (const auto *Call =
              dyn_cast_or_null<CallExpr>(ignoreValuePreserving(Init)))
        if (isPinMemoryCall(Call))
          PinnedVariables[Call] = Var;
    return true;
  }

  bool VisitCompoundAssignOperator(CompoundAssignOperator *Op) {
    if (Op->getOpcode() != BO_AddAssign)
      return true;
    const auto *Ref = dyn_cast<DeclRefExpr>(Op->getLHS()->IgnoreParens());
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    // A floating total is a loss being summed; an integer one counts
    // (correct predictions), from tensors without autograd history.
    if (!Var || !Var->isLocalVarDecl() || !Var->getType()->isFloatingType())
      return true;
    // `total += loss.detach().item()` would stay detached as a tensor sum.
    if (const Expr *Tensor = tensorReadAsNumber(Op->getRHS());
        Tensor && !isDetached(Tensor) && !isInNoGradScope(Op, Ctx))
      Accumulations[Var].push_back({Op, Tensor});
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      if (Var->isLocalVarDecl() && Var->getType()->isArithmeticType())
        References[Var].push_back(Ref);
    return true;
  }

  /// The sites that need the whole TU first; then every site, deduplicated.
  std::vector<Mutation> finish() {
    for (const CallExpr *Pin : PinCalls)
      if (feedsNonBlockingCopy(Pin))
        if (const Expr *Object = callObject(Pin))
          add("drop-pin-memory", Pin->getBeginLoc(),
              {replaceWithTextOf(Pin->getSourceRange(), Object)});
    for (auto &[Var, Sites] : Accumulations)
      addTensorAccumulation(Var, Sites);

    std::set<std::tuple<std::string, unsigned, unsigned>> Seen;
    std::vector<Mutation> Unique;
    for (Candidate &M : Found) {
      if (llvm::any_of(M.Edits,
                       [](const std::optional<Edit> &E) { return !E; }))
        continue;
      Mutation Clean{M.Operator, M.ExpectedCheck, M.Line, {}};
      for (std::optional<Edit> &E : M.Edits)
        Clean.Edits.push_back(std::move(*E));
      llvm::sort(Clean.Edits, [](const Edit &A, const Edit &B) {
        return A.Offset < B.Offset;
      });
      if (Seen.insert({Clean.Operator.str(), Clean.Edits.front().Offset,
                       Clean.Edits.front().Length})
              .second)
        Unique.push_back(std::move(Clean));
    }
    llvm::stable_sort(Unique, [](const Mutation &A, const Mutation &B) {
      return A.Operator < B.Operator;
    });
    return Unique;
  }

private:
  /// A mutation whose edits may have failed to map into the main file.
  struct Candidate {
    llvm::StringRef Operator;
    llvm::StringRef ExpectedCheck;
    unsigned Line;
    std::vector<std::optional<Edit>> Edits;
  };
  struct AccumulationSite {
    const CompoundAssignOperator *Op;
    const Expr *Tensor;
  };

  void visitTensorMigration(const CallExpr *Call) {
    if (transferTarget(Call) == TransferTarget::Host ||
        transferTarget(Call) == TransferTarget::None)
      return;
    const Expr *Object = callObject(Call);
    if (!Object)
      return;
    if (requestsNonBlocking(Call))
      noteNonBlockingSource(Object);
    // A transfer inside a Dataset's get() is itself a performance bug:
    // removing it fixes the program.
    if (!Methods.empty() && isDataPipelineMethod(Methods.back()))
      return;
    if (runsOnlyOffCuda(Call, Ctx))
      return;
    const Expr *Moved = ignoreValuePreserving(Object);
    std::string Spelled =
        llvm::StringRef(textOf(Object->getSourceRange())).lower();
    llvm::StringRef Operator;
    if (llvm::StringRef(Spelled).contains("target") ||
        llvm::StringRef(Spelled).contains("label"))
      Operator = "drop-target-migration";
    else if (const auto *Member = dyn_cast_or_null<MemberExpr>(Moved);
             Member && Member->getMemberDecl()->getName() == "data" &&
             isBatchExampleType(Member->getBase()->getType()))
      Operator = "drop-input-migration";
    else
      return;
    add(Operator, Call->getExprLoc(),
        {replaceWithTextOf(Call->getSourceRange(), Object)});
  }

  void visitModuleMigration(const CallExpr *Call) {
    if (runsOnlyOffCuda(Call, Ctx))
      return;
    // Only a migration that is a statement of its own: removing it leaves
    // an empty statement, and the program compiles.
    if (!parentOf(DynTypedNode::create(*Call), Ctx).get<CompoundStmt>())
      return;
    // The statement goes with its semicolon; the line stays, so every other
    // line keeps its number.
    SourceLocation AfterSemicolon = Lexer::findLocationAfterToken(
        Call->getEndLoc(), tok::semi, SM, LangOpts,
        /*SkipTrailingWhitespaceAndNewLine=*/false);
    if (AfterSemicolon.isInvalid())
      return;
    add("drop-model-migration", Call->getBeginLoc(),
        {replace(
            CharSourceRange::getCharRange(Call->getBeginLoc(), AfterSemicolon),
            "")});
  }

  void visitFactory(const CallExpr *Call) {
    const CXXMethodDecl *Forward = Methods.empty() ? nullptr : Methods.back();
    if (!Forward || Forward->getName() != "forward" ||
        !isModuleClass(Forward->getParent()))
      return;
    const Expr *Device = deviceArgument(Call);
    if (!Device || !mentionsParameterOf(Device, Forward))
      return;
    unsigned Index = 0;
    while (Index < Call->getNumArgs() && Call->getArg(Index) != Device)
      ++Index;
    if (Index == 0 || Index == Call->getNumArgs())
      return;
    // Only the last written argument can go without rewriting the others.
    for (unsigned Later = Index + 1; Later < Call->getNumArgs(); ++Later)
      if (!isa<CXXDefaultArgExpr>(Call->getArg(Later)))
        return;
    SourceLocation From = Lexer::getLocForEndOfToken(
        Call->getArg(Index - 1)->getEndLoc(), 0, SM, LangOpts);
    SourceLocation To =
        Lexer::getLocForEndOfToken(Device->getEndLoc(), 0, SM, LangOpts);
    add("factory-drops-device", Device->getBeginLoc(),
        {replace(CharSourceRange::getCharRange(From, To), "")});
  }

  void visitRegistration(const CallExpr *Call) {
    // Only submodules: a tensor that loses register_parameter is no longer
    // marked trainable anywhere, so nothing in the program says it was meant
    // to be a parameter.
    if (Call->getDirectCallee()->getName() != "register_module" ||
        Call->getNumArgs() < 2)
      return;
    add("drop-registration", Call->getBeginLoc(),
        {replaceWithTextOf(Call->getSourceRange(), Call->getArg(1))});
  }

  /// `total += loss.item<double>()` becomes `total = total + loss` with
  /// `torch::Tensor total = torch::scalar_tensor(0.0)`; every other read of
  /// `total` reads `total.item<double>()`, so the program still compiles and
  /// prints what it printed.
  void addTensorAccumulation(const VarDecl *Var,
                             llvm::ArrayRef<AccumulationSite> Sites) {
    if (Var->getInitStyle() != VarDecl::CInit || !Var->getInit() ||
        !Var->getTypeSourceInfo())
      return;
    std::string Name = Var->getName().str();
    std::string NumberType = Var->getType().getUnqualifiedType().getAsString(
        PrintingPolicy(LangOpts));
    Candidate M{"tensor-accumulation",
                expectedCheckOf("tensor-accumulation"),
                lineOf(Sites.front().Op->getOperatorLoc()),
                {}};
    M.Edits.push_back(
        replace(CharSourceRange::getTokenRange(
                    Var->getTypeSourceInfo()->getTypeLoc().getSourceRange()),
                "torch::Tensor"));
    M.Edits.push_back(wrap(Var->getInit(), "torch::scalar_tensor(", ")"));
    std::set<const Expr *> Converted;
    for (const AccumulationSite &Site : Sites) {
      const Expr *Tensor = ignoreValuePreserving(Site.Tensor);
      bool Simple = isa<DeclRefExpr, MemberExpr, CallExpr, ParenExpr>(Tensor);
      std::string Text = textOf(Site.Tensor->getSourceRange());
      M.Edits.push_back(replace(
          CharSourceRange::getTokenRange(Site.Op->getSourceRange()),
          Name + " = " + Name + " + " + (Simple ? Text : "(" + Text + ")")));
      Converted.insert(Site.Op->getLHS()->IgnoreParens());
    }
    for (const DeclRefExpr *Ref : References.lookup(Var)) {
      if (Converted.count(Ref))
        continue;
      DynTypedNode Parent = parentOf(DynTypedNode::create(*Ref), Ctx);
      if (const auto *Assign = Parent.get<BinaryOperator>();
          Assign && Assign->getLHS()->IgnoreParens() == Ref) {
        if (Assign->getOpcode() == BO_Assign)
          M.Edits.push_back(
              wrap(Assign->getRHS(), "torch::scalar_tensor(", ")"));
        else if (!Assign->isCompoundAssignmentOp())
          M.Edits.push_back(readAsNumber(Ref, NumberType));
        continue;
      }
      if (const auto *Unary = Parent.get<UnaryOperator>();
          Unary &&
          (Unary->isIncrementDecrementOp() || Unary->getOpcode() == UO_AddrOf))
        return; // A tensor has no ++, and its address is not a double's.
      M.Edits.push_back(readAsNumber(Ref, NumberType));
    }
    Found.push_back(std::move(M));
  }

  std::optional<Edit> readAsNumber(const DeclRefExpr *Ref,
                                   const std::string &NumberType) {
    return replace(CharSourceRange::getTokenRange(Ref->getSourceRange()),
                   Ref->getDecl()->getName().str() + ".item<" + NumberType +
                       ">()");
  }

  /// The tensor of `t.item<T>()`, `t.item().toDouble()` (or of that read
  /// cast to a number): what a tensor accumulator would add instead.
  static const Expr *tensorReadAsNumber(const Expr *E) {
    const auto *Call = dyn_cast<CallExpr>(ignoreValuePreserving(E));
    if (!Call)
      return nullptr;
    if (classifyCall(Call) == TorchCallKind::ReadScalar)
      return callObject(Call);
    // c10::Scalar::toDouble() / to<T>() on an item() call.
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
      if (const Expr *Object = Member->getImplicitObjectArgument())
        if (const auto *Inner =
                dyn_cast<CallExpr>(ignoreValuePreserving(Object));
            Inner && classifyCall(Inner) == TorchCallKind::ReadScalar)
          return callObject(Inner);
    return nullptr;
  }

  static bool isDetached(const Expr *Tensor) {
    const auto *Call = dyn_cast<CallExpr>(ignoreValuePreserving(Tensor));
    return Call && classifyCall(Call) == TorchCallKind::Detach;
  }

  static bool mentionsParameterOf(const Expr *E, const FunctionDecl *F) {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      if (const auto *Param = dyn_cast<ParmVarDecl>(Ref->getDecl()))
        return Param->getDeclContext() == F;
    return llvm::any_of(E->children(), [F](const Stmt *Child) {
      const auto *ChildExpr = dyn_cast_or_null<Expr>(Child);
      return ChildExpr && mentionsParameterOf(ChildExpr, F);
    });
  }

  void noteNonBlockingSource(const Expr *Object) {
    Object = ignoreValuePreserving(Object);
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Object))
      NonBlockingVariables.insert(Ref->getDecl());
    else if (const auto *Call = dyn_cast<CallExpr>(Object))
      NonBlockingPinCalls.insert(Call);
  }

  bool feedsNonBlockingCopy(const CallExpr *Pin) const {
    if (NonBlockingPinCalls.count(Pin))
      return true;
    const VarDecl *Var = PinnedVariables.lookup(Pin);
    return Var && NonBlockingVariables.count(Var);
  }

  void add(llvm::StringRef Operator, SourceLocation Where,
           std::vector<std::optional<Edit>> Edits) {
    Found.push_back(
        {Operator, expectedCheckOf(Operator), lineOf(Where), std::move(Edits)});
  }

  unsigned lineOf(SourceLocation Loc) const {
    return SM.getExpansionLineNumber(Loc);
  }

  std::string textOf(SourceRange Range) const {
    CharSourceRange File = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(Range), SM, LangOpts);
    return File.isValid() ? Lexer::getSourceText(File, SM, LangOpts).str()
                          : std::string();
  }

  /// An edit of the main file's text, or nothing when the range is not
  /// written there in one piece (macros, other files).
  std::optional<Edit> replace(CharSourceRange Range, std::string Text) const {
    CharSourceRange File = Lexer::makeFileCharRange(Range, SM, LangOpts);
    if (File.isInvalid() || !SM.isInMainFile(File.getBegin()))
      return std::nullopt;
    unsigned Begin = SM.getFileOffset(File.getBegin());
    unsigned End = SM.getFileOffset(File.getEnd());
    return Edit{Begin, End - Begin, std::move(Text)};
  }

  std::optional<Edit> replaceWithTextOf(SourceRange Range,
                                        const Expr *Kept) const {
    std::string Text = textOf(Kept->getSourceRange());
    if (Text.empty())
      return std::nullopt;
    return replace(CharSourceRange::getTokenRange(Range), Text);
  }

  std::optional<Edit> wrap(const Expr *E, llvm::StringRef Before,
                           llvm::StringRef After) const {
    std::string Text = textOf(E->getSourceRange());
    if (Text.empty())
      return std::nullopt;
    return replace(CharSourceRange::getTokenRange(E->getSourceRange()),
                   (Before + Text + After).str());
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  const LangOptions &LangOpts;
  std::vector<const CXXMethodDecl *> Methods;
  std::vector<Candidate> Found;
  std::vector<const CallExpr *> PinCalls;
  llvm::DenseMap<const CallExpr *, const VarDecl *> PinnedVariables;
  std::set<const Decl *> NonBlockingVariables;
  std::set<const CallExpr *> NonBlockingPinCalls;
  llvm::MapVector<const VarDecl *, std::vector<AccumulationSite>> Accumulations;
  llvm::DenseMap<const VarDecl *, std::vector<const DeclRefExpr *>> References;
};

} // namespace

std::vector<Mutation> findMutations(ASTContext &Ctx) {
  SiteFinder Finder(Ctx);
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
  return Finder.finish();
}

std::string applyMutation(llvm::StringRef Original, const Mutation &M) {
  std::string Text = Original.str();
  unsigned Previous = 0;
  for (const Edit &E : M.Edits) {
    if (E.Offset < Previous || E.Offset + E.Length > Original.size())
      return std::string();
    Previous = E.Offset + E.Length;
  }
  for (const Edit &E : llvm::reverse(M.Edits))
    Text.replace(E.Offset, E.Length, E.Text);
  return Text;
}

} // namespace torchtidy::mutate
