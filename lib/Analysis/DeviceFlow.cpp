//===--- DeviceFlow.cpp - Flow-sensitive device analysis ------------------===//
//
// A forward dataflow pass over the clang CFG. The state maps storage
// (variables, fields) to AbstractValues; expressions are evaluated on demand
// from the state, so the transfer function is "evaluate each CFG element".
// The pass iterates to a fixpoint silently, then walks every block once more
// with reporting on, so findings come from fixed states only.
//
//===----------------------------------------------------------------------===//

#include "Analysis/DeviceFlowPass.h"
#include "Analysis/UnitAnalysis.h"
#include "Model/TorchApi.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/PostOrderCFGView.h"
#include "clang/Analysis/FlowSensitive/DataflowWorklist.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace torchtidy {
namespace detail {
namespace {

/// Joins the states of two paths. Storage that one path stored and the
/// other did not is, on the other path, what it was before the function
/// stored anything (BeforeStores), when it existed then: a parameter, a
/// field of `this`, a global. A module parameter moved in one branch is on
/// its new device or where the caller put it, not on its new device alone.
/// A local variable one path has not stored is not declared on that path.
State joinStates(
    const State &A, const State &B,
    llvm::function_ref<std::optional<AbstractValue>(StorageKey)> BeforeStores) {
  State Result = A;
  for (auto &[Key, Value] : Result)
    if (!B.count(Key))
      if (std::optional<AbstractValue> Before = BeforeStores(Key))
        Value = Value.join(*Before);
  for (const auto &[Key, Value] : B) {
    auto It = Result.find(Key);
    if (It != Result.end()) {
      It->second = It->second.join(Value);
    } else if (std::optional<AbstractValue> Before = BeforeStores(Key)) {
      Result.insert({Key, Before->join(Value)});
    } else {
      Result.insert({Key, Value});
    }
  }
  return Result;
}

bool sameStates(const State &A, const State &B) {
  if (A.size() != B.size())
    return false;
  for (const auto &[Key, Value] : A) {
    auto It = B.find(Key);
    if (It == B.end() || It->second != Value)
      return false;
  }
  return true;
}

} // namespace

DeviceFlowPass::DeviceFlowPass(const FunctionDecl *Function, ASTContext &Ctx,
                               PassMode Mode)
    : Function(Function), Ctx(Ctx), Mode(Mode), Facts(Function->getBody(), Ctx),
      Throws(Mode == PassMode::Report ? Function : nullptr) {
  // Constructors build the parameters, on the host; every other method works
  // on them wherever the module was moved.
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Function);
      Method && Method->isInstance() && !isa<CXXConstructorDecl>(Method) &&
      !isa<CXXDestructorDecl>(Method)) {
    if (isModuleClass(Method->getParent()))
      ModuleOfMethod = Method->getParent();
    else if (isDeviceOwningClass(Method->getParent()))
      DeviceOwnerOfMethod = Method->getParent();
  }
  PlainClassOfMethod = objectFieldsSummarized(Function);
  // Reporting, a helper's parameters are what its callers pass; summarising,
  // they stand for any caller's arguments.
  if (Mode == PassMode::Report)
    Callers = UnitAnalysis::of(Ctx).callerContextOf(Function);
}

std::optional<State> DeviceFlowPass::solve(bool &GaveUp) {
  GaveUp = false;
  const Stmt *Body = Function->getBody();
  if (!Body || Function->isInvalidDecl() || Function->isDependentContext())
    return std::nullopt;
  CFG::BuildOptions Options;
  // A constructor's member initialisers say what its fields start as.
  Options.AddInitializers = isa<clang::CXXConstructorDecl>(Function);
  Options.AddImplicitDtors = false;
  Options.AddTemporaryDtors = false;
  std::unique_ptr<CFG> Graph =
      CFG::buildCFG(Function, const_cast<Stmt *>(Body), &Ctx, Options);
  if (!Graph)
    return std::nullopt;

  std::vector<std::optional<State>> In(Graph->getNumBlockIDs());
  if (!iterateFrom(*Graph, Graph->getEntry(), State(), In)) {
    GaveUp = true;
    return std::nullopt;
  }
  if (!PendingThrows.empty())
    followThrowPaths(*Graph);
  return std::move(In[Graph->getExit().getBlockID()]);
}

bool DeviceFlowPass::iterateFrom(const CFG &Graph, const CFGBlock &Start,
                                 State StartState,
                                 std::vector<std::optional<State>> &In) {
  PostOrderCFGView Order(&Graph);
  ForwardDataflowWorklist Worklist(Graph, &Order);
  In[Start.getBlockID()] = std::move(StartState);
  Worklist.enqueueBlock(&Start);

  Reporting = false;
  FinalWalk = false;
  unsigned Budget = VisitsPerBlockCap * Graph.getNumBlockIDs() + 64;
  while (const CFGBlock *Block = Worklist.dequeue()) {
    if (Budget-- == 0)
      return false;
    State Out = *In[Block->getBlockID()];
    transferBlock(*Block, Out);
    const CFGBlock *Untaken = untakenSuccessor(*Block);
    for (const CFGBlock *Succ : Block->succs()) {
      if (!Succ || Succ == Untaken)
        continue;
      std::optional<State> &SuccIn = In[Succ->getBlockID()];
      if (!SuccIn) {
        SuccIn = Out;
      } else {
        State Joined =
            joinStates(*SuccIn, Out, [this](StorageKey Key) {
              return valueBeforeStores(Key);
            });
        if (sameStates(Joined, *SuccIn))
          continue;
        SuccIn = std::move(Joined);
      }
      Worklist.enqueueBlock(Succ);
    }
  }

  Reporting = Mode == PassMode::Report;
  FinalWalk = true;
  for (const CFGBlock *Block : Graph)
    if (In[Block->getBlockID()]) {
      State S = *In[Block->getBlockID()];
      transferBlock(*Block, S);
    }
  return true;
}

/// Whether E moves a tensor or a module to a device (or back).
static bool isMove(const Expr *E) {
  const auto *Call = dyn_cast<CallExpr>(E);
  return Call && transferTarget(Call) != TransferTarget::None;
}

void DeviceFlowPass::noteThrowPoint(const Expr *E) {
  if (!Reporting || OnThrowPath || PendingThrows.size() >= MaxThrowPaths)
    return;
  const clang::CXXCatchStmt *Handler = Throws.handlerFor(E);
  if (!Handler)
    return;
  // A throw from the same state takes the same path. It is named by the
  // move that throws, where one does: that is what a fallback is for.
  for (PendingThrow &Pending : PendingThrows)
    if (Pending.Path.Handler == Handler &&
        sameStates(Pending.Before, *Current)) {
      if (isMove(E) && !isMove(Pending.Path.Thrower))
        Pending.Path.Thrower = E;
      return;
    }
  PendingThrows.push_back({{E, Handler}, *Current});
}

void DeviceFlowPass::followThrowPaths(const CFG &Graph) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::DenseMap<const Stmt *, const CFGBlock *> HandlerBlocks;
  for (const CFGBlock *Block : Graph)
    if (const Stmt *Label = Block->getLabel();
        isa_and_nonnull<CXXCatchStmt>(Label))
      HandlerBlocks[Label] = Block;
  // A site two paths reach is reported on the path a move starts.
  std::stable_partition(
      PendingThrows.begin(), PendingThrows.end(),
      [](const PendingThrow &Pending) { return isMove(Pending.Path.Thrower); });
  // Only the mixed sites of these paths are kept: what else the code after
  // a handler does is reported on the paths on which nothing throws.
  DeviceFlowResult NothingThrown = std::move(Result);
  llvm::DenseSet<const Expr *> ReportedWithoutThrow = ReportedSites;
  for (const PendingThrow &Pending : PendingThrows) {
    const CFGBlock *Handler = HandlerBlocks.lookup(Pending.Path.Handler);
    if (!Handler)
      continue;
    Result = DeviceFlowResult();
    ReportedSites = ReportedWithoutThrow;
    OnThrowPath = &Pending.Path;
    std::vector<std::optional<State>> In(Graph.getNumBlockIDs());
    bool Reached = iterateFrom(Graph, *Handler, Pending.Before, In);
    OnThrowPath = nullptr;
    if (!Reached || Result.MixedSites.empty())
      continue;
    // The first op on the path that mixes them, where it fails.
    MixedDeviceSite *First = &Result.MixedSites.front();
    for (MixedDeviceSite &Site : Result.MixedSites)
      if (SM.isBeforeInTranslationUnit(Site.Call->getSourceRange().getEnd(),
                                       First->Call->getSourceRange().getEnd()))
        First = &Site;
    bool SeenBefore =
        llvm::any_of(ThrowPathSites, [&](const MixedDeviceSite &Seen) {
          return Seen.Call == First->Call;
        });
    if (SeenBefore)
      continue;
    // The fix is in the handler, not a `.to()` at the op.
    First->MissingMigration.reset();
    First->UnmovedSource.reset();
    First->OnThrowPath = Pending.Path;
    ThrowPathSites.push_back(std::move(*First));
  }
  Result = std::move(NothingThrown);
  ReportedSites = std::move(ReportedWithoutThrow);
}

const CFGBlock *DeviceFlowPass::untakenSuccessor(const CFGBlock &Block) {
  if (Block.succ_size() != 2)
    return nullptr;
  std::optional<bool> Tested = trainingModeTestedBy(
      dyn_cast_or_null<Expr>(Block.getTerminatorCondition()));
  if (!Tested || UnitAnalysis::of(Ctx).mayLeaveTrainingMode())
    return nullptr;
  // The successors are the branch taken when the condition holds, then the
  // other.
  return *(Block.succ_begin() + (*Tested ? 1 : 0));
}

DeviceFlowResult DeviceFlowPass::run() {
  bool GaveUp = false;
  solve(GaveUp);
  if (GaveUp) {
    DeviceFlowResult Partial;
    Partial.GaveUp = true;
    return Partial;
  }
  mergeSitesOfOneRootCause();
  for (MixedDeviceSite &Site : ThrowPathSites)
    Result.MixedSites.push_back(std::move(Site));
  return std::move(Result);
}

FunctionSummary DeviceFlowPass::summarize() {
  Summary.Result = AbstractValue(); // Joined over the returns, from bottom.
  bool GaveUp = false;
  std::optional<State> AtExit = solve(GaveUp);
  if (GaveUp) {
    FunctionSummary Nothing;
    Nothing.GaveUp = true;
    return Nothing;
  }
  if (AtExit)
    collectEffects(*AtExit);
  // A pass over data copies its result to the host once per pass.
  Summary.PassesOverData |= Facts.hasLoopOverData();
  if (Summary.PassesOverData)
    Summary.HostSyncs.clear();
  if (Summary.Result.Where.State == Placement::Knowledge::Unset)
    Summary.Result = AbstractValue::unknown();
  return std::move(Summary);
}

void DeviceFlowPass::transferBlock(const CFGBlock &Block, State &S) {
  Current = &S;
  Memo.clear();
  for (const CFGElement &Element : Block) {
    if (std::optional<clang::CFGInitializer> Init =
            Element.getAs<clang::CFGInitializer>()) {
      transferInitializer(Init->getInitializer());
      continue;
    }
    std::optional<CFGStmt> StmtElement = Element.getAs<CFGStmt>();
    if (!StmtElement)
      continue;
    const Stmt *St = StmtElement->getStmt();
    if (const auto *E = dyn_cast<Expr>(St))
      noteThrowPoint(E);
    if (const auto *Decl = dyn_cast<DeclStmt>(St)) {
      for (const clang::Decl *D : Decl->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D))
          transferDecl(Var);
    } else if (const auto *Return = dyn_cast<ReturnStmt>(St)) {
      if (!Return->getRetValue())
        continue;
      AbstractValue Returned = eval(Return->getRetValue());
      if (FinalWalk && Mode == PassMode::Summarize)
        Summary.Result = Summary.Result.join(Returned);
    } else if (const auto *E = dyn_cast<Expr>(St)) {
      eval(E);
    }
  }
  Current = nullptr;
}

void DeviceFlowPass::transferInitializer(const clang::CXXCtorInitializer *Init) {
  const clang::FieldDecl *Field = Init->getMember();
  if (!Field || !Init->getInit())
    return;
  AbstractValue Value = eval(Init->getInit());
  if (classifyType(Field->getType()) != TorchValueKind::None) {
    (*Current)[{nullptr, Field}] = Value;
    Memo.clear();
    return;
  }
  // `memory_(capacity)`, or a default member initialiser: an object the
  // class holds starts with what its constructor leaves in its fields.
  if (plainUserClassOf(Field->getType())) {
    const Expr *Built = Init->getInit();
    if (const auto *Default = dyn_cast<clang::CXXDefaultInitExpr>(Built))
      Built = Default->getExpr();
    if (std::optional<ObjectConstruction> Construction = objectConstructionOf(
            ignoreValuePreserving(Built)->IgnoreImplicit()))
      applyConstructorEffects(Field, *Construction);
    else
      forgetFieldsKeptUnder(Field);
  }
}

void DeviceFlowPass::transferDecl(const VarDecl *Var) {
  if (const auto *Decomposition = dyn_cast<DecompositionDecl>(Var)) {
    if (const Expr *Init = Decomposition->getInit()) {
      // `auto [out, state] = lstm->forward(x);`: the bindings read their
      // elements from the tuple with std::get. In `for (auto &[state,
      // reward] : batch)`, the tuple is an element of the container.
      AbstractValue Whole = eval(Init);
      if (std::optional<AbstractValue> Element = rangeForElement(Decomposition))
        Whole = *Element;
      if (isTensorTupleType(Decomposition->getType()))
        (*Current)[{Decomposition, nullptr}] = Whole;
      // `for (const auto &[state, action] : transitions)`: the fields.
      if (isTensorRecordType(Decomposition->getType()) &&
          !Whole.Elements.empty())
        setFieldsFrom(Decomposition, Whole);
    }
    for (const BindingDecl *Binding : Decomposition->bindings()) {
      const Expr *Bound = Binding->getBinding();
      if (const VarDecl *Holding = Binding->getHoldingVar();
          Holding && Holding->getInit())
        Bound = Holding->getInit();
      if (Bound)
        (*Current)[{Binding, nullptr}] = eval(Bound);
    }
    return;
  }
  // `Batch b{x.to(d), y};`: an aggregate's fields start as initialised.
  // (A type that is only declared, as in code that does not compile, has
  // no bases or fields to ask about.)
  if (const auto *Record = Var->getType()->getAsCXXRecordDecl();
      Record && Record->hasDefinition() && Var->getInit() &&
      Record->getNumBases() == 0)
    if (const auto *List =
            dyn_cast<InitListExpr>(Var->getInit()->IgnoreImplicit())) {
      unsigned Index = 0;
      for (const FieldDecl *Field : Record->fields()) {
        if (Index >= List->getNumInits())
          break;
        AbstractValue Value = eval(List->getInit(Index++));
        if (classifyType(Field->getType()) != TorchValueKind::None)
          (*Current)[{Var, Field}] = Value;
      }
    }
  if (const Expr *Init = Var->getInit();
      Init && classifyType(Var->getType()) == TorchValueKind::None)
    if (std::optional<ObjectConstruction> Construction =
            objectConstructionOf(ignoreValuePreserving(Init))) {
      eval(Init);
      applyConstructorEffects(Var, *Construction);
    }
  // `ReplayMemory &memory = memory_;`, `auto *m = &buffer;`: what is done
  // through the alias is done to the object, under a name its fields are
  // not kept under.
  if (const Expr *Init = Var->getInit();
      Init &&
      (Var->getType()->isReferenceType() || Var->getType()->isPointerType()) &&
      !Var->getType()->getPointeeType().isConstQualified() &&
      plainUserClassOf(Var->getType()->getPointeeType())) {
    eval(Init);
    forgetFieldsOf(Init);
  }
  // `auto &slot = states[i];`: what is stored through it goes into the
  // container.
  if (const Expr *Init = Var->getInit();
      Init && Var->getType()->isReferenceType() &&
      !Var->getType().getNonReferenceType().isConstQualified())
    if (const Expr *Container = containerOfElement(Init))
      ElementReferences[Var] = Container;
  // `for (auto &t : batch)`, `Transition t = memory.front();`: an object
  // taken from a container has the fields its element has. (Braces are
  // read field by field above.)
  if (isTensorRecordType(Var->getType())) {
    std::optional<AbstractValue> Object = rangeForElement(Var);
    if (const Expr *Init = Var->getInit();
        !Object && Init && !isa<DecompositionDecl>(Var) &&
        !isa<InitListExpr>(Init->IgnoreImplicit()))
      Object = eval(Init);
    if (Object && !Object->Elements.empty())
      setFieldsFrom(Var, *Object);
  }
  // `auto it = states.begin();`: writes through it are not followed.
  if (const Expr *Init = Var->getInit(); Init && !Var->isImplicit())
    forgetContainerWrittenThrough(Init);
  if (classifyType(Var->getType()) == TorchValueKind::None)
    return;
  if (std::optional<AbstractValue> Element = rangeForElement(Var)) {
    (*Current)[{Var, nullptr}] = *Element;
    return;
  }
  // Without an initializer (`torch::DeviceType type;`) nothing is known yet:
  // the value is whatever the assignments on each path make it.
  AbstractValue Value;
  if (const Expr *Init = Var->getInit())
    Value = isModuleType(Var->getType()) ? aliasModule(Init) : eval(Init);
  (*Current)[{Var, nullptr}] = Value;
}

AbstractValue DeviceFlowPass::eval(const Expr *E) {
  if (!E)
    return AbstractValue::unknown();
  auto It = Memo.find(E);
  if (It != Memo.end())
    return It->second;
  if (Depth >= MaxEvalDepth)
    return AbstractValue::unknown();
  if (E->containsErrors()) {
    forgetWhatErrorTouches(E);
    return AbstractValue::unknown();
  }
  ++Depth;
  AbstractValue Value = evalUncached(E);
  --Depth;
  Memo[E] = Value;
  return Value;
}

void DeviceFlowPass::forgetWhatErrorTouches(const Expr *E) {
  // `model.to(torch::kCUDA)` that does not compile (a class an error made
  // invalid) still means to move the model: nothing it names is known.
  forEachStmt(E, [&](const Stmt *S) {
    const auto *Named = dyn_cast<Expr>(S);
    if (!Named || !isa<DeclRefExpr, MemberExpr>(Named))
      return;
    store(Named, AbstractValue::unknown());
    forgetFieldsOf(Named);
  });
}

AbstractValue DeviceFlowPass::evalUncached(const Expr *E) {
  const Expr *Bare = ignoreValuePreserving(E);
  if (Bare != E)
    return eval(Bare);

  // An object of a class that holds tensors, as an element of a container
  // holds it: its fields, by index.
  if (isTensorRecordType(E->getType()))
    if (std::optional<AbstractValue> Object = recordValueOf(E))
      return *Object;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return evalDeclRef(Ref);
  if (const auto *Member = dyn_cast<MemberExpr>(E))
    return evalMember(Member);
  if (const auto *Conditional = dyn_cast<ConditionalOperator>(E)) {
    eval(Conditional->getCond());
    return eval(Conditional->getTrueExpr())
        .join(eval(Conditional->getFalseExpr()));
  }
  if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
    if (Binary->getOpcode() == BO_Assign)
      return evalAssignment(Binary->getLHS(), Binary->getRHS(), Binary);
    eval(Binary->getLHS());
    eval(Binary->getRHS());
    return AbstractValue::unknown();
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
    return evalConstruct(Construct);
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    // The call's operands are evaluated (and memoized) by now.
    AbstractValue Value = evalCall(Call);
    recordHostSync(Call);
    return Value;
  }
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
    return eval(Default->getExpr());
  if (const auto *Default = dyn_cast<clang::CXXDefaultInitExpr>(E))
    return eval(Default->getExpr());
  if (isa<LambdaExpr>(E))
    return AbstractValue::unknown(); // Analysed as a function of its own.
  // Anything else: evaluate children for their effects.
  for (const Stmt *Child : E->children())
    if (const auto *ChildExpr = dyn_cast_or_null<Expr>(Child))
      eval(ChildExpr);
  return AbstractValue::unknown();
}

std::optional<AbstractValue>
DeviceFlowPass::valueBeforeStores(StorageKey Key) const {
  // A variable of this body did not exist before it; nor did its fields.
  const auto *Var = dyn_cast_or_null<VarDecl>(Key.first);
  bool DeclaredHere = Var && !isa<ParmVarDecl>(Var) &&
                      Var->isLocalVarDeclOrParm() &&
                      Var->getDeclContext() == Function;
  if (DeclaredHere || (Key.first && !Var))
    return std::nullopt;
  if (const auto *Parm = dyn_cast_or_null<ParmVarDecl>(Key.first);
      Parm && Parm->getDeclContext() != Function)
    return std::nullopt; // A parameter of a lambda's own or a callee's.
  // As a read of storage nothing stored yet is (evalDeclRef, evalMember).
  const ValueDecl *Read = Key.second ? Key.second : Key.first;
  bool IsDeviceSpec = Read && isDeviceSpecType(Read->getType());
  if (!Key.first || !Key.second || IsDeviceSpec)
    if (std::optional<AbstractValue> Entry = entryValue(Read))
      return Entry;
  if (!Key.second)
    if (std::optional<AbstractValue> Chosen = deviceChosenOutside(Key.first))
      return Chosen;
  return AbstractValue::unknown();
}

std::optional<AbstractValue>
DeviceFlowPass::deviceChosenOutside(const ValueDecl *D) const {
  // The caller chooses: on an accelerator, as far as host data cares. A
  // lambda's captures are chosen by the function around it, the same way.
  const auto *Var = dyn_cast<VarDecl>(D);
  if (!isDeviceSpecType(D->getType()) ||
      !(isa<ParmVarDecl>(D) || (Var && Var->isLocalVarDeclOrParm() &&
                                Var->getDeclContext() != Function)))
    return std::nullopt;
  AbstractValue V;
  V.Where = Placement::on(DeviceSet::anyDevice(), D);
  return V;
}

AbstractValue DeviceFlowPass::evalDeclRef(const DeclRefExpr *Ref) {
  const ValueDecl *D = Ref->getDecl();
  if (std::optional<llvm::StringRef> Named = deviceTypeNamed(D)) {
    if (std::optional<Device> Dev = Device::parse(*Named)) {
      AbstractValue V;
      V.Where = Placement::on(DeviceSet::of(*Dev));
      return V;
    }
  }
  bool IsDeviceSpec = isDeviceSpecType(D->getType());
  auto It = Current->find({D, nullptr});
  if (It != Current->end()) {
    AbstractValue V = It->second;
    // Values placed through this variable stay together with each other.
    if (IsDeviceSpec && V.Where.isKnown())
      V.Where.DeviceVar = D;
    return V;
  }
  if (std::optional<AbstractValue> Entry = entryValue(D))
    return *Entry;
  if (std::optional<AbstractValue> Chosen = deviceChosenOutside(D))
    return *Chosen;
  if (IsDeviceSpec) {
    const auto *Var = dyn_cast<VarDecl>(D);
    if (Var && !Var->isLocalVarDeclOrParm() && Var->getInit()) {
      AbstractValue V = eval(Var->getInit());
      if (V.Where.isKnown())
        V.Where.DeviceVar = D;
      return V;
    }
  }
  if (const auto *Binding = dyn_cast<BindingDecl>(D))
    if (Binding->getBinding())
      return eval(Binding->getBinding());
  return AbstractValue::unknown();
}

AbstractValue DeviceFlowPass::evalMember(const MemberExpr *Member) {
  eval(Member->getBase());
  if (std::optional<StorageKey> Key = storageKeyOf(Member)) {
    bool IsDeviceSpec = isDeviceSpecType(Key->second->getType());
    auto It = Current->find(*Key);
    if (It != Current->end()) {
      AbstractValue V = It->second;
      // A device member names its device, like a device variable.
      if (IsDeviceSpec && V.Where.isKnown())
        V.Where.DeviceVar = Key->second;
      return V;
    }
    if (!Key->first || IsDeviceSpec)
      if (std::optional<AbstractValue> Entry = entryValue(Key->second))
        return *Entry;
  }
  if (std::optional<unsigned> Index = pairMemberIndex(Member))
    return eval(Member->getBase()).element(*Index);
  // `batch[i].state`, `memory.front().state`: a field of an element.
  if (const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
      Field && !Member->isArrow() &&
      isTensorRecordType(Member->getBase()->getType()))
    if (AbstractValue Object = eval(Member->getBase());
        Field->getFieldIndex() < Object.Elements.size())
      return Object.Elements[Field->getFieldIndex()];
  // An example this function built from tensors holds those tensors.
  if (std::optional<unsigned> Index = exampleMemberIndex(Member))
    if (AbstractValue Example = eval(Member->getBase());
        !Example.Elements.empty())
      return Example.element(*Index);
  // Data loaders build their examples on the host.
  if (isBatchExampleType(Member->getBase()->getType()) &&
      isTensorType(Member->getType())) {
    AbstractValue V;
    V.Where = Placement::host();
    V.Grad = GradHistory::None;
    V.Memory = HostMemory::Pageable; // C++ data loaders never pin batches.
    std::optional<StorageKey> Key = storageKeyOf(Member);
    V.addOrigin({Origin::Kind::DataLoaderBatch, Member->getExprLoc(),
                 spelling(Member), "", "the CPU", Key ? Key->first : nullptr,
                 Member});
    return V;
  }
  // `net->fc1->weight`: a submodule, parameter or buffer that a module
  // registers moves with it, so it is where that module is.
  if (const Expr *Owner = moduleObjectOfMember(Member))
    if (const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
        Field && (isRegisteredModuleMember(Field) ||
                  isRegisteredLayerTensor(Field))) {
      AbstractValue Whole = eval(Owner);
      AbstractValue Part;
      Part.Where = Whole.Where;
      Part.Origins = Whole.Origins;
      return Part;
    }
  return AbstractValue::unknown();
}

/// What a container that holds Held holds once Element is added to it, or
/// put in place of one of its elements. Elements on different devices (or
/// whose devices are known differently) leave it unknown: which element is
/// where cannot be told, and a finding must not rest on a guess.
static AbstractValue withElement(const AbstractValue &Held,
                                 const AbstractValue &Element) {
  if (Held.Where.State == Placement::Knowledge::Unset)
    return Element;
  if (Element.Where.State == Placement::Knowledge::Unset)
    return Held;
  // Tuples or objects: part by part.
  if (!Held.Elements.empty() &&
      Held.Elements.size() == Element.Elements.size()) {
    std::vector<AbstractValue> Parts;
    for (size_t I = 0; I < Held.Elements.size(); ++I)
      Parts.push_back(withElement(Held.Elements[I], Element.Elements[I]));
    return AbstractValue::tupleOf(std::move(Parts));
  }
  if (Held.Where != Element.Where)
    return AbstractValue::unknown();
  return Held.join(Element);
}

AbstractValue DeviceFlowPass::evalConstruct(const CXXConstructExpr *Construct) {
  for (const Expr *Arg : Construct->arguments())
    eval(Arg);
  QualType Type = Construct->getType();
  // A user object built from a module keeps a handle that can move it.
  if (!isInLibTorchNamespace(Construct->getConstructor()) &&
      !isModuleType(Type))
    for (const Expr *Arg : Construct->arguments())
      if (isModuleType(Arg->getType()))
        store(Arg, AbstractValue::unknown());
  unsigned NumArgs = Construct->getNumArgs();

  if (isDeviceSpecType(Type)) {
    if (NumArgs == 0)
      return AbstractValue(); // TensorOptions(): no device given.
    const Expr *First = Construct->getArg(0);
    if (isDeviceSpecType(First->getType())) {
      AbstractValue V = eval(First);
      // torch::Device(torch::kCUDA, 1)
      if (NumArgs > 1 && V.Where.isKnown() && V.Where.Devices.isSingle())
        if (const auto *Index = dyn_cast<IntegerLiteral>(
                Construct->getArg(1)->IgnoreParenImpCasts())) {
          Device D = V.Where.Devices.devices().front();
          D.Index = static_cast<int>(Index->getValue().getZExtValue());
          V.Where = Placement::on(DeviceSet::of(D));
        }
      return V;
    }
    if (isTensorOptionsType(Type))
      return AbstractValue(); // TensorOptions(kFloat): dtype only.
    // torch::Device("cuda:1"), or a string only known at run time.
    AbstractValue V;
    const Expr *Text = First;
    while (!isa<StringLiteral>(Text)) {
      const Expr *Inner = Text->IgnoreImplicit();
      if (const auto *Wrapped = dyn_cast<CXXConstructExpr>(Inner);
          Wrapped && Wrapped->getNumArgs() >= 1)
        Inner = Wrapped->getArg(0);
      if (Inner == Text)
        break;
      Text = Inner;
    }
    std::optional<Device> Parsed;
    if (const auto *Literal = dyn_cast<StringLiteral>(Text))
      Parsed = Device::parse(Literal->getString());
    V.Where =
        Placement::on(Parsed ? DeviceSet::of(*Parsed) : DeviceSet::anyDevice());
    return V;
  }

  if (isModuleOptionsType(Type))
    return optionsFrom({Construct->getArgs(), Construct->getNumArgs()});
  if (isModuleType(Type)) {
    // `torch::nn::Linear fc{nullptr}` holds no module yet.
    if (NumArgs == 1 && Construct->getArg(0)->getType()->isNullPtrType())
      return AbstractValue();
    return newModuleOnHost(Construct);
  }
  if (isTensorType(Type) && NumArgs == 0)
    return AbstractValue(); // An undefined tensor.
  // torch::data::Example<>(data, target) built by hand: its tensors are
  // wherever they were, not where a data loader puts its batches.
  if (isBatchExampleType(Type)) {
    if (NumArgs == 1 && isBatchExampleType(Construct->getArg(0)->getType()))
      return eval(Construct->getArg(0));
    if (NumArgs == 2)
      return AbstractValue::tupleOf(
          {eval(Construct->getArg(0)), eval(Construct->getArg(1))});
    return AbstractValue::unknown();
  }
  if (isTensorTupleType(Type)) {
    // A copy, or a conversion from another tuple.
    if (NumArgs == 1 && isTensorTupleType(Construct->getArg(0)->getType()))
      return eval(Construct->getArg(0));
    // `return {x, y};`, std::pair<at::Tensor, at::Tensor> p(x, y).
    std::vector<AbstractValue> Parts;
    for (const Expr *Arg : Construct->arguments())
      Parts.push_back(eval(Arg));
    return NumArgs ? AbstractValue::tupleOf(std::move(Parts))
                   : AbstractValue::unknown();
  }
  if (isTensorContainerType(Type)) {
    // Empty, or n undefined tensors: it holds nothing on any device yet.
    if (NumArgs == 0 ||
        (NumArgs == 1 && Construct->getArg(0)->getType()->isIntegerType()))
      return AbstractValue();
    const Expr *First = underListConversions(Construct->getArg(0));
    // A copy or a move of another container.
    if (NumArgs == 1 && isTensorContainerType(First->getType()))
      return eval(First);
    // `{a, b}`: what its elements are.
    if (const auto *List = dyn_cast<InitListExpr>(First)) {
      AbstractValue Held;
      for (const Expr *Element : List->inits())
        Held = withElement(Held, eval(Element));
      return Held;
    }
    // (n, value): n copies of value.
    if (NumArgs == 2 && Construct->getArg(0)->getType()->isIntegerType() &&
        classifyType(Construct->getArg(1)->getType()) != TorchValueKind::None)
      return eval(Construct->getArg(1));
  }
  return AbstractValue::unknown();
}

/// V, and each of its elements, no longer placed through Variable.
static void forgetDeviceVariable(AbstractValue &V, const ValueDecl *Variable) {
  if (V.Where.DeviceVar == Variable) {
    V.Where.DeviceVar = nullptr;
    for (Origin &Step : V.Origins)
      if (Step.K == Origin::Kind::Migration ||
          Step.K == Origin::Kind::ModuleMigration)
        Step.MoveCanBeRepeated = false;
  }
  for (AbstractValue &Element : V.Elements)
    forgetDeviceVariable(Element, Variable);
}

void DeviceFlowPass::store(const Expr *Target, const AbstractValue &Value) {
  std::optional<StorageKey> Key = storageKeyOf(Target);
  if (!Key)
    return;
  const ValueDecl *Decl = Key->second ? Key->second : Key->first;
  if (!Decl || classifyType(Decl->getType()) == TorchValueKind::None)
    return;
  AbstractValue Stored = Value;
  // A device variable is its own name; reading it sets DeviceVar again.
  if (isDeviceSpecType(Decl->getType())) {
    Stored.Where.DeviceVar = nullptr;
    Stored.Where.FromParameter = nullptr;
    // What was placed through it before stays where it went: it no longer
    // agrees with what is placed through it from now on (`device =
    // torch::kCPU;` in a fallback, after the model moved).
    for (auto &[Held, HeldValue] : *Current)
      forgetDeviceVariable(HeldValue, Decl);
  }
  (*Current)[*Key] = Stored;
  Memo.clear(); // Earlier reads of the target are stale now.
  // An element of a container, bound by reference: the container holds
  // what was stored, among what it held. A field stored in such an element
  // changes one element's part, which is not followed.
  if (const Expr *Container = ElementReferences.lookup(Key->first))
    store(Container, Key->second ? AbstractValue::unknown()
                                 : withElement(eval(Container), Stored));
}

std::optional<AbstractValue> DeviceFlowPass::recordValueOf(const Expr *E) {
  const Expr *Bare = ignoreValuePreserving(E);
  const CXXRecordDecl *Class = Bare->getType()->getAsCXXRecordDecl();
  if (!Class)
    return std::nullopt;
  std::vector<AbstractValue> Fields;
  auto FieldsFrom =
      [&](llvm::function_ref<AbstractValue(const FieldDecl *)> ValueOf) {
        for (const FieldDecl *Field : Class->fields())
          Fields.push_back(classifyType(Field->getType()) ==
                                   TorchValueKind::None
                               ? AbstractValue()
                               : ValueOf(Field));
        return AbstractValue::tupleOf(std::move(Fields));
      };
  // `Transition{state, action, reward}`: initialised field by field.
  if (const auto *List = dyn_cast<InitListExpr>(Bare)) {
    if (List->isSyntacticForm() && List->getSemanticForm())
      List = List->getSemanticForm();
    // With bases, the initialisers do not line up with the fields.
    if (Class->getNumBases() != 0)
      return std::nullopt;
    return FieldsFrom([&](const FieldDecl *Field) {
      return Field->getFieldIndex() < List->getNumInits()
                 ? eval(List->getInit(Field->getFieldIndex()))
                 : AbstractValue::unknown();
    });
  }
  // A variable or parameter of this function: its fields as followed.
  if (objectFieldsOwner(Bare))
    return FieldsFrom([&](const FieldDecl *Field) {
      return fieldOfObject(Bare, Field).value_or(AbstractValue::unknown());
    });
  return std::nullopt;
}

void DeviceFlowPass::setFieldsFrom(const ValueDecl *Owner,
                                   const AbstractValue &Object) {
  const CXXRecordDecl *Class =
      Owner->getType().getNonReferenceType()->getAsCXXRecordDecl();
  if (!Class)
    return;
  for (const FieldDecl *Field : Class->fields())
    if (classifyType(Field->getType()) != TorchValueKind::None)
      (*Current)[{Owner, Field}] = Object.element(Field->getFieldIndex());
  Memo.clear();
}

/// Whether V is what the storage Key held when the function was entered,
/// as a summary says it: "whatever the caller's object holds there".
static bool isEntryPlaceholder(const AbstractValue &V, StorageKey Key) {
  const ValueDecl *Stored = Key.second ? Key.second : Key.first;
  return V.Where.isKnown() && V.Where.Devices.isAny() &&
         V.Where.DeviceVar == Stored;
}

void DeviceFlowPass::appendTo(const Expr *Container,
                              const AbstractValue &Element) {
  AbstractValue Held = eval(Container);
  if (std::optional<StorageKey> Key = storageKeyOf(Container))
    appendAt(*Key, Held, Element);
}

void DeviceFlowPass::appendAt(StorageKey Key, const AbstractValue &Held,
                              const AbstractValue &Element) {
  if (Mode == PassMode::Summarize && Key.second &&
      isEntryPlaceholder(Held, Key)) {
    // `states_.push_back(s)`: the caller's container, plus s. The state
    // keeps saying "what the caller's object holds", which a join would
    // lose.
    if (FinalWalk) {
      AbstractValue &Added = AppendedOnEntry[Key];
      Added = withElement(Added, Element);
    }
    return;
  }
  const ValueDecl *Decl = Key.second ? Key.second : Key.first;
  if (!Decl || classifyType(Decl->getType()) == TorchValueKind::None)
    return;
  (*Current)[Key] = withElement(Held, Element);
  Memo.clear();
}

std::optional<AbstractValue>
DeviceFlowPass::rangeForElement(const VarDecl *LoopVar) {
  const CXXForRangeStmt *Loop = Facts.rangeForDeclaring(LoopVar);
  if (!Loop || !Loop->getRangeInit() ||
      !isTensorContainerType(Loop->getRangeInit()->getType()))
    return std::nullopt;
  const Expr *Range = Loop->getRangeInit();
  // `for (auto &t : tensors) t = t.to(device);` rebinds the elements: what
  // is stored in t goes into the container.
  if (LoopVar->getType()->isReferenceType() &&
      !LoopVar->getType().getNonReferenceType().isConstQualified())
    ElementReferences[LoopVar] = Range;
  return eval(Range);
}

std::string DeviceFlowPass::spelling(const Expr *E) const {
  std::string Text = writtenText(E->getSourceRange(), Ctx);
  if (Text.empty()) {
    // Put together from a macro and its arguments: as clang prints it.
    llvm::raw_string_ostream Printed(Text);
    PrintingPolicy Policy(Ctx.getLangOpts());
    Policy.SuppressImplicitBase = true;
    E->printPretty(Printed, nullptr, Policy);
  }
  std::string Flat;
  for (char C : llvm::StringRef(Text).trim()) {
    if (C == '\n' || C == '\t' || C == '\r')
      C = ' ';
    if (C == ' ' && !Flat.empty() && Flat.back() == ' ')
      continue;
    Flat += C;
  }
  if (Flat.empty())
    return "expression";
  if (Flat.size() > 48)
    Flat = Flat.substr(0, 45) + "...";
  return Flat;
}

std::string DeviceFlowPass::callSuffix(const CallExpr *Call) const {
  std::string Name = Call->getDirectCallee()->getNameAsString();
  llvm::SmallVector<const Expr *, 4> Explicit;
  for (const Expr *Arg : Call->arguments())
    if (!isa<CXXDefaultArgExpr>(Arg))
      Explicit.push_back(Arg);
  if (Explicit.empty())
    return "." + Name + "()";
  std::string Args = writtenText(
      {Explicit.front()->getBeginLoc(), Explicit.back()->getEndLoc()}, Ctx);
  return "." + Name + "(" + Args + ")";
}

} // namespace detail

DeviceFlowResult analyzeDeviceFlow(const FunctionDecl *Function,
                                   ASTContext &Ctx) {
  if (!Function || !Function->hasBody())
    return DeviceFlowResult();
  return detail::DeviceFlowPass(Function, Ctx, detail::PassMode::Report).run();
}

FunctionSummary summarizeDeviceFlow(const FunctionDecl *Function,
                                    ASTContext &Ctx) {
  if (!Function || !Function->hasBody())
    return {};
  return detail::DeviceFlowPass(Function, Ctx, detail::PassMode::Summarize)
      .summarize();
}

} // namespace torchtidy
