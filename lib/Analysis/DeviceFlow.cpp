//===--- DeviceFlow.cpp - Flow-sensitive device analysis ------------------===//
//
// A forward dataflow pass over the clang CFG. The state maps storage
// (variables, fields) to AbstractValues; expressions are evaluated on demand
// from the state, so the transfer function is "evaluate each CFG element".
// The pass iterates to a fixpoint silently, then walks every block once more
// with reporting on, so findings come from fixed states only.
//
//===----------------------------------------------------------------------===//

#include "Analysis/DeviceFlow.h"
#include "Analysis/FunctionFacts.h"
#include "Model/TorchApi.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/PostOrderCFGView.h"
#include "clang/Analysis/CFG.h"
#include "clang/Analysis/FlowSensitive/DataflowWorklist.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace torchtidy {
namespace {

using State = llvm::DenseMap<StorageKey, AbstractValue>;

/// Blocks may be visited this many times each, on average, before the
/// function is given up on (reported clean) instead of running long.
constexpr unsigned VisitsPerBlockCap = 32;
/// Expression nesting deeper than this evaluates to "unknown".
constexpr unsigned MaxEvalDepth = 256;

State joinStates(const State &A, const State &B) {
  State Result = A;
  for (const auto &[Key, Value] : B) {
    auto It = Result.find(Key);
    if (It == Result.end())
      Result.insert({Key, Value});
    else
      It->second = It->second.join(Value);
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

class DeviceFlowPass {
public:
  DeviceFlowPass(const FunctionDecl *Function, ASTContext &Ctx)
      : Function(Function), Ctx(Ctx), Facts(Function->getBody(), Ctx) {}

  DeviceFlowResult run();

private:
  // Transfer.
  void transferBlock(const CFGBlock &Block, State &S);
  void transferDecl(const VarDecl *Var);
  AbstractValue eval(const Expr *E);
  AbstractValue evalUncached(const Expr *E);
  AbstractValue evalDeclRef(const DeclRefExpr *Ref);
  AbstractValue evalMember(const MemberExpr *Member);
  AbstractValue evalConstruct(const CXXConstructExpr *Construct);
  AbstractValue evalCall(const CallExpr *Call);
  AbstractValue evalOp(const CallExpr *Call, TorchCallKind Kind);
  AbstractValue evalFactory(const CallExpr *Call, TorchCallKind Kind);
  AbstractValue evalTensorMigration(const CallExpr *Call);
  AbstractValue evalModuleMigration(const CallExpr *Call);
  AbstractValue evalModuleForward(const CallExpr *Call);
  AbstractValue newModuleOnHost(const Expr *Creation);
  void forgetWhatCalleeMayChange(const CallExpr *Call);
  AbstractValue aliasModule(const Expr *Source);
  AbstractValue evalAssignment(const Expr *Target, const Expr *Source,
                               const Expr *Site);
  void store(const Expr *Target, const AbstractValue &Value);

  // Findings.
  void checkOperands(const CallExpr *Call, llvm::StringRef CallName,
                     llvm::ArrayRef<Operand> Operands, const Operand *Module);
  void recordMixedSite(const CallExpr *Call, llvm::StringRef CallName,
                       Operand Stayed, Operand Other);
  void recordAccumulation(const Expr *Site, const Expr *Accumulator,
                          const Expr *Added, bool IsContainer);

  // Helpers.
  Operand operandFor(const Expr *E);
  GradHistory resultGrad(const Stmt *Site,
                         llvm::ArrayRef<AbstractValue> Inputs) const;
  std::string spelling(const Expr *E) const;
  std::string callSuffix(const CallExpr *Call) const;
  AbstractValue deviceOf(const Expr *DeviceSpec);

  const FunctionDecl *Function;
  ASTContext &Ctx;
  FunctionFacts Facts;
  State *Current = nullptr;
  llvm::DenseMap<const Expr *, AbstractValue> Memo;
  unsigned Depth = 0;
  bool Reporting = false;

  DeviceFlowResult Result;
  llvm::DenseSet<const Expr *> ReportedSites;
  /// Per example variable, the `.to(...)` one of its tensors was moved with.
  llvm::DenseMap<const ValueDecl *, std::string> SiblingMigrations;
};

DeviceFlowResult DeviceFlowPass::run() {
  const Stmt *Body = Function->getBody();
  if (!Body || Function->isInvalidDecl() || Function->isDependentContext())
    return Result;
  CFG::BuildOptions Options;
  Options.AddInitializers = false;
  Options.AddImplicitDtors = false;
  Options.AddTemporaryDtors = false;
  std::unique_ptr<CFG> Graph =
      CFG::buildCFG(Function, const_cast<Stmt *>(Body), &Ctx, Options);
  if (!Graph)
    return Result;

  PostOrderCFGView Order(Graph.get());
  ForwardDataflowWorklist Worklist(*Graph, &Order);
  std::vector<std::optional<State>> In(Graph->getNumBlockIDs());
  In[Graph->getEntry().getBlockID()] = State();
  Worklist.enqueueBlock(&Graph->getEntry());

  unsigned Budget = VisitsPerBlockCap * Graph->getNumBlockIDs() + 64;
  while (const CFGBlock *Block = Worklist.dequeue()) {
    if (Budget-- == 0) {
      DeviceFlowResult GaveUp;
      GaveUp.GaveUp = true;
      return GaveUp;
    }
    State Out = *In[Block->getBlockID()];
    transferBlock(*Block, Out);
    for (const CFGBlock *Succ : Block->succs()) {
      if (!Succ)
        continue;
      std::optional<State> &SuccIn = In[Succ->getBlockID()];
      if (!SuccIn) {
        SuccIn = Out;
      } else {
        State Joined = joinStates(*SuccIn, Out);
        if (sameStates(Joined, *SuccIn))
          continue;
        SuccIn = std::move(Joined);
      }
      Worklist.enqueueBlock(Succ);
    }
  }

  Reporting = true;
  for (const CFGBlock *Block : *Graph)
    if (In[Block->getBlockID()]) {
      State S = *In[Block->getBlockID()];
      transferBlock(*Block, S);
    }
  return std::move(Result);
}

void DeviceFlowPass::transferBlock(const CFGBlock &Block, State &S) {
  Current = &S;
  Memo.clear();
  for (const CFGElement &Element : Block) {
    std::optional<CFGStmt> StmtElement = Element.getAs<CFGStmt>();
    if (!StmtElement)
      continue;
    const Stmt *St = StmtElement->getStmt();
    if (const auto *Decl = dyn_cast<DeclStmt>(St)) {
      for (const clang::Decl *D : Decl->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D))
          transferDecl(Var);
    } else if (const auto *Return = dyn_cast<ReturnStmt>(St)) {
      if (Return->getRetValue())
        eval(Return->getRetValue());
    } else if (const auto *E = dyn_cast<Expr>(St)) {
      eval(E);
    }
  }
  Current = nullptr;
}

void DeviceFlowPass::transferDecl(const VarDecl *Var) {
  if (const auto *Decomposition = dyn_cast<DecompositionDecl>(Var)) {
    if (Decomposition->getInit())
      eval(Decomposition->getInit());
    for (const BindingDecl *Binding : Decomposition->bindings())
      if (const Expr *Bound = Binding->getBinding())
        (*Current)[{Binding, nullptr}] = eval(Bound);
    return;
  }
  if (classifyType(Var->getType()) == TorchValueKind::None)
    return;
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
  if (Depth >= MaxEvalDepth || E->containsErrors())
    return AbstractValue::unknown();
  ++Depth;
  AbstractValue Value = evalUncached(E);
  --Depth;
  Memo[E] = Value;
  return Value;
}

AbstractValue DeviceFlowPass::evalUncached(const Expr *E) {
  const Expr *Bare = ignoreValuePreserving(E);
  if (Bare != E)
    return eval(Bare);

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
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return evalCall(Call);
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
    return eval(Default->getExpr());
  if (isa<LambdaExpr>(E))
    return AbstractValue::unknown(); // Analysed as a function of its own.
  // Anything else: evaluate children for their effects.
  for (const Stmt *Child : E->children())
    if (const auto *ChildExpr = dyn_cast_or_null<Expr>(Child))
      eval(ChildExpr);
  return AbstractValue::unknown();
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
  if (IsDeviceSpec) {
    AbstractValue V;
    if (isa<ParmVarDecl>(D)) {
      // The caller chooses: on an accelerator, as far as host data cares.
      V.Where = Placement::on(DeviceSet::anyDevice(), D);
      return V;
    }
    if (const auto *Var = dyn_cast<VarDecl>(D);
        Var && !Var->isLocalVarDeclOrParm() && Var->getInit()) {
      V = eval(Var->getInit());
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
    auto It = Current->find(*Key);
    if (It != Current->end())
      return It->second;
  }
  // Data loaders build their examples on the host.
  if (isBatchExampleType(Member->getBase()->getType()) &&
      isTensorType(Member->getType())) {
    AbstractValue V;
    V.Where = Placement::host();
    V.Grad = GradHistory::None;
    std::optional<StorageKey> Key = storageKeyOf(Member);
    V.addOrigin({Origin::Kind::DataLoaderBatch, Member->getExprLoc(),
                 spelling(Member), "", "the CPU", Key ? Key->first : nullptr});
    return V;
  }
  return AbstractValue::unknown();
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

  if (isModuleType(Type)) {
    // `torch::nn::Linear fc{nullptr}` holds no module yet.
    if (NumArgs == 1 && Construct->getArg(0)->getType()->isNullPtrType())
      return AbstractValue();
    return newModuleOnHost(Construct);
  }
  if (isTensorType(Type) && NumArgs == 0)
    return AbstractValue(); // An undefined tensor.
  return AbstractValue::unknown();
}

AbstractValue DeviceFlowPass::newModuleOnHost(const Expr *Creation) {
  // Modules create their parameters on the CPU.
  AbstractValue V;
  V.Where = Placement::host();
  V.addOrigin({Origin::Kind::ModuleConstruction, Creation->getBeginLoc(), "",
               "", "the CPU"});
  return V;
}

AbstractValue DeviceFlowPass::evalCall(const CallExpr *Call) {
  TorchCallKind Kind = classifyCall(Call);
  switch (Kind) {
  case TorchCallKind::Migration:
    return evalTensorMigration(Call);
  case TorchCallKind::ModuleMigration:
    return evalModuleMigration(Call);
  case TorchCallKind::ModuleForward:
    return evalModuleForward(Call);
  case TorchCallKind::ModuleConstruction:
    for (const Expr *Arg : Call->arguments())
      eval(Arg);
    return newModuleOnHost(Call);
  case TorchCallKind::Factory:
  case TorchCallKind::LikeFactory:
  case TorchCallKind::FromBlob:
  case TorchCallKind::TensorLiteral:
    return evalFactory(Call, Kind);
  default:
    break;
  }

  // Assignments through operator= of tensors, devices and modules.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
      Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
    return evalAssignment(Op->getArg(0), Op->getArg(1), Op);

  const Expr *Object = callObject(Call);
  AbstractValue ObjectValue = Object ? eval(Object) : AbstractValue::unknown();
  llvm::SmallVector<AbstractValue, 4> ArgValues;
  for (unsigned I = 0; I < Call->getNumArgs(); ++I)
    ArgValues.push_back(eval(Call->getArg(I)));

  switch (Kind) {
  case TorchCallKind::Op:
  case TorchCallKind::Reduction:
  case TorchCallKind::LossFunction:
  case TorchCallKind::InPlaceAccumulate:
    return evalOp(Call, Kind);
  case TorchCallKind::Detach: {
    ObjectValue.Grad = GradHistory::None;
    return ObjectValue;
  }
  case TorchCallKind::DeviceQuery: {
    AbstractValue V;
    V.Where = ObjectValue.Where;
    V.Origins = ObjectValue.Origins;
    return V;
  }
  case TorchCallKind::RequiresGrad: {
    AbstractValue V = Object ? ObjectValue : AbstractValue();
    V.Grad = GradHistory::Carries;
    if (Object && isTensorType(Object->getType()))
      store(Object, V);
    return V;
  }
  case TorchCallKind::TensorOptionsSet: {
    const Expr *Spec = deviceArgument(Call);
    AbstractValue V = Object ? ObjectValue : AbstractValue();
    if (Spec)
      V.Where = deviceOf(Spec).Where;
    return V;
  }
  case TorchCallKind::TensorOptionsKeep:
    return Object ? ObjectValue : AbstractValue();
  case TorchCallKind::ContainerAppend:
    if (Call->getNumArgs() > 0)
      recordAccumulation(Call, Object, Call->getArg(Call->getNumArgs() - 1),
                         /*IsContainer=*/true);
    return AbstractValue::unknown();
  default:
    forgetWhatCalleeMayChange(Call);
    return AbstractValue::unknown();
  }
}

void DeviceFlowPass::forgetWhatCalleeMayChange(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  // The model knows what LibTorch calls do; the standard library's handle
  // accessors (shared_ptr::operator->, get) do not move anything.
  if (Callee && (isInLibTorchNamespace(Callee) || isInStandardLibrary(Callee)))
    return;
  // Modules are shared handles: a callee can move the caller's module. A
  // tensor bound to a non-const reference can be rebound.
  const Expr *Object = callObject(Call);
  if (Object && isModuleType(Object->getType()))
    store(Object, AbstractValue::unknown());
  bool ObjectIsArgument = isa<CXXOperatorCallExpr>(Call) && Object;
  for (unsigned I = ObjectIsArgument ? 1 : 0; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I);
    TorchValueKind Kind = classifyType(Arg->getType());
    if (Kind == TorchValueKind::None)
      continue;
    unsigned ParamIndex = ObjectIsArgument ? I - 1 : I;
    bool ByMutableReference = true; // Unknown callee: assume the worst.
    if (Callee && ParamIndex < Callee->getNumParams()) {
      QualType Param = Callee->getParamDecl(ParamIndex)->getType();
      ByMutableReference = Param->isReferenceType() &&
                           !Param.getNonReferenceType().isConstQualified();
    }
    if (Kind == TorchValueKind::Module || ByMutableReference)
      store(Arg, AbstractValue::unknown());
  }
}

AbstractValue DeviceFlowPass::deviceOf(const Expr *DeviceSpec) {
  AbstractValue V = eval(DeviceSpec);
  AbstractValue Result;
  Result.Where = V.Where;
  Result.Grad = V.Grad; // requires_grad(true) travels in options.
  return Result;
}

AbstractValue DeviceFlowPass::evalFactory(const CallExpr *Call,
                                          TorchCallKind Kind) {
  for (const Expr *Arg : Call->arguments())
    eval(Arg);
  AbstractValue V;
  V.Grad = GradHistory::None;
  if (const Expr *Spec = deviceArgument(Call)) {
    AbstractValue Options = deviceOf(Spec);
    V.Where = Options.Where;
    if (Options.Grad == GradHistory::Carries)
      V.Grad = GradHistory::Carries;
  }
  if (!V.Where.isKnown() && V.Where.State == Placement::Knowledge::Unset) {
    llvm::SmallVector<const Expr *, 4> Tensors = tensorOperands(Call);
    if (Kind == TorchCallKind::LikeFactory && !Tensors.empty()) {
      AbstractValue Like = eval(Tensors.front());
      V.Where = Like.Where;
      V.Origins = Like.Origins;
      V.ZeroDim = Like.ZeroDim;
    } else {
      V.Where = Placement::host();
    }
  }
  V.ZeroDim = V.ZeroDim || isScalarFactoryCall(Call);
  Origin::Kind OriginKind =
      Kind == TorchCallKind::FromBlob        ? Origin::Kind::FromBlob
      : Kind == TorchCallKind::TensorLiteral ? Origin::Kind::TensorLiteral
                                             : Origin::Kind::Factory;
  V.addOrigin({OriginKind, Call->getBeginLoc(), spelling(Call),
               calleeDisplayName(Call), V.Where.describe()});
  if (Facts.isInNoGradScope(Call))
    V.Grad = GradHistory::None;
  return V;
}

AbstractValue DeviceFlowPass::evalTensorMigration(const CallExpr *Call) {
  const Expr *Object = callObject(Call);
  AbstractValue Source = Object ? eval(Object) : AbstractValue::unknown();
  for (const Expr *Arg : Call->arguments())
    eval(Arg);
  llvm::StringRef Name = Call->getDirectCallee()->getName();

  AbstractValue V = Source;
  if (Name == "cuda") {
    V.Where = Placement::on(DeviceSet::of({"cuda", -1}));
  } else if (Name == "cpu") {
    V.Where = Placement::host();
  } else if (const Expr *Like = deviceSourceTensorArgument(Call)) {
    V.Where = eval(Like).Where;
  } else if (const Expr *Spec = deviceArgument(Call)) {
    Placement Target = deviceOf(Spec).Where;
    if (Target.State != Placement::Knowledge::Unset)
      V.Where = Target; // Options without a device keep the device.
  }
  if (V.Where != Source.Where || Name != "to") {
    // Where the copy came from no longer explains where it is.
    V.Origins.clear();
    bool ToHost = V.Where.isDefinitelyHost();
    V.addOrigin({ToHost ? Origin::Kind::HostCopy : Origin::Kind::Migration,
                 Call->getExprLoc(), Object ? spelling(Object) : "",
                 callSuffix(Call), V.Where.describe()});
  }
  if (Facts.isInNoGradScope(Call))
    V.Grad = GradHistory::None;
  // batch.data.to(d): how this batch's tensors are meant to travel.
  if (const Origin *FromBatch =
          Source.findOrigin(Origin::Kind::DataLoaderBatch);
      FromBatch && FromBatch->Batch && !V.Where.isDefinitelyHost())
    SiblingMigrations[FromBatch->Batch] = callSuffix(Call);

  // `x.to(d);` alone: the moved copy is thrown away and x stays put.
  if (Object && Facts.isDiscardedValue(Call)) {
    if (Reporting && ReportedSites.insert(Call).second) {
      DroppedMigration Dropped;
      Dropped.Call = Call;
      Dropped.Object = operandFor(Object);
      Dropped.Migration = callSuffix(Call);
      const Expr *Target = Object->IgnoreParenImpCasts();
      Dropped.Assignable = storageKeyOf(Target).has_value() &&
                           !Target->getType().isConstQualified() &&
                           Target->isLValue();
      Result.DroppedMigrations.push_back(std::move(Dropped));
    }
    AbstractValue Stayed = Source;
    Stayed.addOrigin({Origin::Kind::DroppedMigration, Call->getExprLoc(),
                      spelling(Object), callSuffix(Call),
                      Source.Where.describe()});
    store(Object, Stayed);
  }
  return V;
}

AbstractValue DeviceFlowPass::evalModuleMigration(const CallExpr *Call) {
  const Expr *Object = callObject(Call);
  for (const Expr *Arg : Call->arguments())
    eval(Arg);
  if (!Object)
    return AbstractValue::unknown();
  AbstractValue Module = eval(Object);
  llvm::StringRef Name = Call->getDirectCallee()->getName();
  Placement Target = Placement::unset();
  if (Name == "cuda")
    Target = Placement::on(DeviceSet::of({"cuda", -1}));
  else if (Name == "cpu")
    Target = Placement::host();
  else if (const Expr *Spec = deviceArgument(Call))
    Target = deviceOf(Spec).Where;
  if (Target.State == Placement::Knowledge::Unset)
    return AbstractValue::unknown(); // module->to(torch::kFloat)
  // Modules move in place: the module itself is now there, and where it was
  // created no longer matters.
  Module.Where = Target;
  Module.Origins.clear();
  Module.addOrigin({Origin::Kind::ModuleMigration, Call->getExprLoc(),
                    spelling(Object), callSuffix(Call), Target.describe()});
  store(Object, Module);
  return AbstractValue::unknown();
}

AbstractValue DeviceFlowPass::evalModuleForward(const CallExpr *Call) {
  const Expr *Object = callObject(Call);
  Operand Module;
  if (Object) {
    Module = operandFor(Object);
    Module.IsModule = true;
  }
  llvm::SmallVector<Operand, 4> Inputs;
  for (const Expr *Arg : tensorOperands(Call))
    if (Arg != Object)
      Inputs.push_back(operandFor(Arg));
  for (const Expr *Arg : Call->arguments())
    eval(Arg);

  const CXXRecordDecl *ModuleClass =
      Object ? moduleClassOf(Object->getType()) : nullptr;
  bool HasDevice =
      Module.Value.Where.isKnown() && moduleHoldsParameters(ModuleClass);
  checkOperands(Call, Module.Spelling, Inputs, HasDevice ? &Module : nullptr);

  llvm::SmallVector<AbstractValue, 4> InputValues;
  for (const Operand &Input : Inputs)
    InputValues.push_back(Input.Value);

  AbstractValue V;
  if (HasDevice) {
    V.Where = Module.Value.Where;
    V.Origins = Module.Value.Origins;
  } else {
    // No weights of its own (or unknown): the output follows the inputs.
    for (const AbstractValue &Input : InputValues)
      if (!Input.isHostScalar() && Input.Where.isKnown()) {
        V.Where = Input.Where;
        V.Origins = Input.Origins;
        if (!Input.Where.isDefinitelyHost())
          break;
      }
    if (!V.Where.isKnown())
      V.Where = Placement::unknown();
  }
  V.ZeroDim = moduleReturnsScalar(ModuleClass);
  V.Grad = Facts.isInNoGradScope(Call) ? GradHistory::None
                                       : (moduleHoldsParameters(ModuleClass)
                                              ? GradHistory::Carries
                                              : resultGrad(Call, InputValues));
  // Weightless modules (losses, activations) pass their inputs' history on.
  if (moduleHoldsParameters(ModuleClass))
    V.addOrigin({Origin::Kind::ModuleOutput, Call->getBeginLoc(),
                 Module.Spelling, "", V.Where.describe()});
  return V;
}

AbstractValue DeviceFlowPass::evalOp(const CallExpr *Call, TorchCallKind Kind) {
  llvm::SmallVector<Operand, 4> Operands;
  for (const Expr *E : tensorOperands(Call))
    Operands.push_back(operandFor(E));
  checkOperands(Call, calleeDisplayName(Call), Operands, nullptr);

  llvm::SmallVector<AbstractValue, 4> Values;
  for (const Operand &O : Operands)
    Values.push_back(O.Value);

  AbstractValue V;
  V.Where = Placement::unknown();
  // The result is where the op ran: on the non-scalar operands' device, and
  // if they disagree (already reported), on the accelerator.
  for (const AbstractValue &Value : Values)
    if (!Value.isHostScalar() && Value.Where.isKnown()) {
      V.Where = Value.Where;
      V.Origins = Value.Origins;
      if (!Value.Where.isDefinitelyHost())
        break;
    }
  if (!V.Where.isKnown() && !Values.empty() &&
      llvm::all_of(Values,
                   [](const AbstractValue &X) { return X.isHostScalar(); })) {
    V.Where = Placement::host();
    V.Origins = Values.front().Origins;
  }
  V.ZeroDim =
      Kind == TorchCallKind::Reduction || Kind == TorchCallKind::LossFunction ||
      (!Values.empty() &&
       llvm::all_of(Values, [](const AbstractValue &X) { return X.ZeroDim; }));
  V.Grad = resultGrad(Call, Values);

  if (Kind == TorchCallKind::InPlaceAccumulate && !Operands.empty()) {
    // acc += x / acc.add_(x): acc keeps its device and shape, and gains x's
    // history.
    const Expr *Object = callObject(Call);
    AbstractValue Updated = Operands.front().Value;
    Updated.Grad = V.Grad;
    if (Object)
      store(Object, Updated);
    if (Object && Operands.size() > 1)
      recordAccumulation(Call, Object, Operands[1].E, /*IsContainer=*/false);
    return Updated;
  }
  return V;
}

AbstractValue DeviceFlowPass::aliasModule(const Expr *Source) {
  AbstractValue Value = eval(Source);
  // A second handle to the same module: moving either moves both, which the
  // per-variable state cannot follow. Forget both rather than guess.
  if (storageKeyOf(Source)) {
    store(Source, AbstractValue::unknown());
    return AbstractValue::unknown();
  }
  return Value;
}

AbstractValue DeviceFlowPass::evalAssignment(const Expr *Target,
                                             const Expr *Source,
                                             const Expr *Site) {
  AbstractValue Value =
      isModuleType(Target->getType()) ? aliasModule(Source) : eval(Source);
  // acc = acc + x: an accumulation just like acc += x.
  if (std::optional<StorageKey> TargetKey = storageKeyOf(Target)) {
    if (const auto *Sum = dyn_cast<CallExpr>(ignoreValuePreserving(Source))) {
      llvm::SmallVector<const Expr *, 4> Terms = tensorOperands(Sum);
      const FunctionDecl *Callee = Sum->getDirectCallee();
      bool IsAdd = Callee && (Callee->getOverloadedOperator() == OO_Plus ||
                              Callee->getNameAsString() == "add");
      if (IsAdd && Terms.size() == 2) {
        for (int I = 0; I < 2; ++I)
          if (storageKeyOf(Terms[I]) == TargetKey)
            recordAccumulation(Site, Target, Terms[1 - I],
                               /*IsContainer=*/false);
      }
    }
  }
  store(Target, Value);
  return Value;
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
  if (isDeviceSpecType(Decl->getType()))
    Stored.Where.DeviceVar = nullptr;
  (*Current)[*Key] = Stored;
  Memo.clear(); // Earlier reads of the target are stale now.
}

GradHistory
DeviceFlowPass::resultGrad(const Stmt *Site,
                           llvm::ArrayRef<AbstractValue> Inputs) const {
  if (Facts.isInNoGradScope(Site))
    return GradHistory::None;
  bool AllNone = !Inputs.empty();
  for (const AbstractValue &Input : Inputs) {
    if (Input.Grad == GradHistory::Carries)
      return GradHistory::Carries;
    AllNone &= Input.Grad == GradHistory::None;
  }
  return AllNone ? GradHistory::None : GradHistory::Unknown;
}

Operand DeviceFlowPass::operandFor(const Expr *E) {
  Operand O;
  O.E = E;
  O.Spelling = spelling(E);
  O.Value = eval(E);
  return O;
}

void DeviceFlowPass::checkOperands(const CallExpr *Call,
                                   llvm::StringRef CallName,
                                   llvm::ArrayRef<Operand> Operands,
                                   const Operand *Module) {
  if (!Reporting)
    return;
  auto Exempt = [](const Operand &O) { return O.Value.isHostScalar(); };
  // Inputs against the module's weights first: that is where it fails.
  if (Module)
    for (const Operand &Input : Operands)
      if (!Exempt(Input) &&
          mayConflict(Input.Value.Where, Module->Value.Where)) {
        recordMixedSite(Call, CallName, Input, *Module);
        return;
      }
  for (size_t I = 0; I < Operands.size(); ++I)
    for (size_t J = I + 1; J < Operands.size(); ++J)
      if (!Exempt(Operands[I]) && !Exempt(Operands[J]) &&
          mayConflict(Operands[I].Value.Where, Operands[J].Value.Where)) {
        recordMixedSite(Call, CallName, Operands[I], Operands[J]);
        return;
      }
}

/// Whether the operand is data that starts on the host by nature and that
/// the program is expected to move: a batch, wrapped memory, a literal.
static bool isUnmovedInput(const AbstractValue &V) {
  if (V.Origins.empty())
    return false;
  switch (V.Origins.front().K) {
  case Origin::Kind::DataLoaderBatch:
  case Origin::Kind::FromBlob:
  case Origin::Kind::TensorLiteral:
    return true;
  default:
    return false;
  }
}

/// The `.to(...)` call that put a value where it is, if one did.
static const Origin *migrationOf(const AbstractValue &V) {
  for (const Origin &O : V.Origins)
    if (O.K == Origin::Kind::Migration || O.K == Origin::Kind::ModuleMigration)
      return &O;
  return nullptr;
}

void DeviceFlowPass::recordMixedSite(const CallExpr *Call,
                                     llvm::StringRef CallName, Operand Stayed,
                                     Operand Other) {
  // The side left on the host is the one that "stayed".
  if (!Stayed.Value.Where.isDefinitelyHost() &&
      Other.Value.Where.isDefinitelyHost())
    std::swap(Stayed, Other);
  // Already reported where its `.to()` result was dropped.
  if (Stayed.Value.findOrigin(Origin::Kind::DroppedMigration) ||
      Other.Value.findOrigin(Origin::Kind::DroppedMigration))
    return;
  if (!ReportedSites.insert(Call).second)
    return;

  MixedDeviceSite Site;
  Site.Call = Call;
  Site.IsModuleCall = Stayed.IsModule || Other.IsModule;
  Site.OpName = CallName.str();
  const Origin *Migration = migrationOf(Other.Value);
  if (Stayed.IsModule) {
    // A model left on the host meets inputs that were moved: move the model.
    Site.MissingMigration = Migration ? Migration->Detail : std::string();
  } else if (Migration && (Other.IsModule || isUnmovedInput(Stayed.Value))) {
    Site.MissingMigration = Migration->Detail;
    // Prefer the way its own sibling travelled (batch.data.to(d, true)).
    if (const Origin *FromBatch =
            Stayed.Value.findOrigin(Origin::Kind::DataLoaderBatch);
        FromBatch && FromBatch->Batch) {
      auto Sibling = SiblingMigrations.find(FromBatch->Batch);
      if (Sibling != SiblingMigrations.end())
        Site.MissingMigration = Sibling->second;
    }
  }
  Site.Stayed = std::move(Stayed);
  Site.Other = std::move(Other);
  Result.MixedSites.push_back(std::move(Site));
}

void DeviceFlowPass::recordAccumulation(const Expr *Site,
                                        const Expr *Accumulator,
                                        const Expr *Added, bool IsContainer) {
  if (!Reporting || !Accumulator || !Added)
    return;
  Operand AddedOperand = operandFor(Added);
  if (AddedOperand.Value.Grad != GradHistory::Carries ||
      Facts.isInNoGradScope(Site))
    return;
  const Stmt *Loop = Facts.innermostLoopAround(Site);
  std::optional<StorageKey> Key = storageKeyOf(Accumulator);
  if (!Loop || !Key)
    return;
  // Storage that dies with the iteration takes its graph with it.
  if (Key->first && Facts.isDeclaredInside(Key->first, Loop))
    return;
  // Gradient accumulation on purpose: backward() through the accumulator.
  if (Facts.isBackpropagatedOrEscapes(*Key) ||
      (Key->first && Facts.isBackpropagatedOrEscapes({Key->first, nullptr})))
    return;
  if (!ReportedSites.insert(Site).second)
    return;
  RetainedGraphAccumulation Found;
  Found.Site = Site;
  Found.Added = Added;
  Found.Loop = Loop;
  Found.Accumulator = spelling(Accumulator);
  Found.AddedOperand = std::move(AddedOperand);
  Found.IsScalarTotal =
      !IsContainer &&
      (eval(Accumulator).ZeroDim ||
       isScalarFactoryCall(Key->second ? Key->second->getInClassInitializer()
                                       : nullptr));
  Result.Accumulations.push_back(std::move(Found));
}

std::string DeviceFlowPass::spelling(const Expr *E) const {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()), SM,
      Ctx.getLangOpts());
  llvm::StringRef Text =
      Range.isValid() ? Lexer::getSourceText(Range, SM, Ctx.getLangOpts())
                      : llvm::StringRef();
  std::string Flat;
  for (char C : Text.trim()) {
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
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange Range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Explicit.front()->getBeginLoc(),
                                     Explicit.back()->getEndLoc()),
      SM, Ctx.getLangOpts());
  llvm::StringRef Args =
      Range.isValid() ? Lexer::getSourceText(Range, SM, Ctx.getLangOpts())
                      : llvm::StringRef();
  return "." + Name + "(" + Args.str() + ")";
}

} // namespace

DeviceFlowResult analyzeDeviceFlow(const FunctionDecl *Function,
                                   ASTContext &Ctx) {
  if (!Function || !Function->hasBody())
    return {};
  return DeviceFlowPass(Function, Ctx).run();
}

} // namespace torchtidy
