//===--- TensorOps.cpp - LibTorch calls, 0-dim results, autograd ----------===//

#include "Model/TensorOps.h"

#include "Model/Devices.h"
#include "Model/ModelDetail.h"
#include "Model/Modules.h"
#include "Model/SourceText.h"
#include "Model/TorchTypes.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace torchtidy {
using namespace model_detail;

namespace {

/// c10::ArrayRef<at::Tensor> (torch::TensorList) and other tensor sequences
/// that LibTorch functions take as one argument.
bool isTensorSequenceType(QualType T) {
  const CXXRecordDecl *RD = recordOf(T);
  if (!RD)
    return false;
  if (!isRecordNamed(RD, "c10::ArrayRef") &&
      !isRecordNamed(RD, "c10::IListRef") &&
      !isRecordNamed(RD, "std::vector") &&
      !isRecordNamed(RD, "std::initializer_list"))
    return false;
  return isTensorType(firstTemplateTypeArgument(RD));
}

bool isLossFunctionName(llvm::StringRef Name) {
  return Name.ends_with("_loss") ||
         isOneOf(Name, {"cross_entropy", "binary_cross_entropy",
                        "binary_cross_entropy_with_logits", "kl_div"});
}

bool isReductionName(llvm::StringRef Name) {
  return isOneOf(Name, {"sum", "mean", "max", "min", "prod", "norm", "amax",
                        "amin", "std", "var", "all", "any"});
}

/// Calls that take tensors but legitimately combine devices or only read
/// them: copying between devices, printing, serialising.
bool isCrossDeviceOrIOName(llvm::StringRef Name) {
  return isOneOf(Name, {"copy_", "set_", "index_put_", "index_put", "to",
                        "save", "load", "print", "operator<<", "operator>>",
                        "operator[]", "index", "is_same", "is_alias_of"});
}

/// Argument count that matters for overloads with defaults, e.g. sum().
unsigned explicitArgCount(const CallExpr *Call) {
  unsigned N = 0;
  for (const Expr *Arg : Call->arguments())
    if (!isa<CXXDefaultArgExpr>(Arg))
      ++N;
  return N - firstParameterArgument(Call);
}

/// A setter of TensorOptions, as a method (`options.device(d)`) or as the
/// free function that starts a chain (`torch::device(d)`).
TorchCallKind classifyTensorOptionsSetter(llvm::StringRef Name,
                                          const CallExpr *Call) {
  if (Name == "device")
    return TorchCallKind::TensorOptionsSet;
  if (Name == "requires_grad" && Call->getNumArgs() > 0 &&
      isLiteralTrue(Call->getArg(0)))
    return TorchCallKind::RequiresGrad;
  return TorchCallKind::TensorOptionsKeep;
}

TorchCallKind classifyTensorMethod(llvm::StringRef Name, const CallExpr *Call) {
  if (Name == "to" || Name == "cuda" || Name == "cpu")
    return TorchCallKind::Migration;
  if (Name == "detach")
    return TorchCallKind::Detach;
  if (Name == "item")
    return TorchCallKind::ReadScalar;
  if (Name == "device" || Name == "options")
    return TorchCallKind::DeviceQuery;
  if (Name == "backward")
    return TorchCallKind::Backward;
  if (Name == "requires_grad_")
    return TorchCallKind::RequiresGrad;
  // `x.set_requires_grad(true)`, the older spelling real code still uses.
  if (Name == "set_requires_grad" && Call->getNumArgs() > 0 &&
      isLiteralTrue(Call->getArg(Call->getNumArgs() - 1)))
    return TorchCallKind::RequiresGrad;
  if (Name == "add_" || Name == "operator+=")
    return TorchCallKind::InPlaceAccumulate;
  if (isCrossDeviceOrIOName(Name) || Name == "operator=")
    return TorchCallKind::CrossDevice;
  if (isReductionName(Name) && explicitArgCount(Call) == 0)
    return TorchCallKind::Reduction;
  return TorchCallKind::Op;
}

TorchCallKind classifyFreeFunction(const FunctionDecl *FD,
                                   const CallExpr *Call) {
  llvm::StringRef Name = plainName(FD);
  std::string Qualified = stableQualifiedName(FD);
  if (Qualified == "std::make_shared" && isModuleType(FD->getReturnType()))
    return TorchCallKind::ModuleConstruction;
  if (Qualified == "std::move" || Qualified == "std::forward")
    return TorchCallKind::Other;
  if (tupleElementIndex(Call))
    return TorchCallKind::TupleElement;
  if ((Qualified == "std::make_pair" || Qualified == "std::make_tuple" ||
       Qualified == "std::forward_as_tuple" || Qualified == "std::tie") &&
      isTensorTupleType(FD->getReturnType()))
    return TorchCallKind::TupleConstruction;
  if (!isInLibTorchNamespace(FD)) {
    return FD->getOverloadedOperator() != OO_None &&
                   isTensorType(FD->getReturnType())
               ? TorchCallKind::Op
               : TorchCallKind::Other;
  }
  if (Qualified == "torch::autograd::backward" ||
      Qualified == "torch::autograd::grad")
    return TorchCallKind::Backward;
  if (isTensorOptionsType(FD->getReturnType()))
    return classifyTensorOptionsSetter(Name, Call);
  if (Name == "from_blob")
    return TorchCallKind::FromBlob;
  if (Name == "tensor" && isTensorType(FD->getReturnType()))
    return TorchCallKind::TensorLiteral;
  if (Name.ends_with("_like"))
    return TorchCallKind::LikeFactory;
  if (isCrossDeviceOrIOName(FD->getNameAsString()))
    return TorchCallKind::CrossDevice;
  // torch::stack(tensors) with a vector variable: its elements are not
  // visible here, but it combines tensors; it creates nothing on the host.
  bool HasTensorOperand = !tensorOperands(Call).empty() ||
                          llvm::any_of(Call->arguments(), [](const Expr *Arg) {
                            return isTensorSequenceType(Arg->getType());
                          });
  if (isTensorType(FD->getReturnType()) && !HasTensorOperand)
    return TorchCallKind::Factory;
  if (!HasTensorOperand)
    return TorchCallKind::Other;
  if (isLossFunctionName(Name))
    return TorchCallKind::LossFunction;
  if (isReductionName(Name) && explicitArgCount(Call) == 1)
    return TorchCallKind::Reduction;
  return TorchCallKind::Op;
}

} // namespace

/// What a method of a container of tensors does to the elements it holds.
static TorchCallKind classifyContainerMethod(llvm::StringRef Name,
                                             const CallExpr *Call) {
  if (isOneOf(Name, {"push_back", "emplace_back", "push_front", "emplace_front",
                     "emplace"}))
    return TorchCallKind::ContainerAppend;
  // `insert(pos, x)`; a range or a count of copies is no one element.
  if (Name == "insert" && explicitArgCount(Call) == 2 &&
      classifyType(Call->getArg(1)->getType()) != TorchValueKind::None)
    return TorchCallKind::ContainerAppend;
  if (Name == "clear")
    return TorchCallKind::ContainerClear;
  // Fewer elements, or room for more: what the rest are stays. (`resize`
  // adds undefined tensors, which are on no device.)
  if (isOneOf(Name, {"reserve", "pop_back", "pop_front", "erase", "resize",
                     "shrink_to_fit", "size", "empty", "capacity"}))
    return TorchCallKind::ContainerKeep;
  if (isOneOf(Name, {"begin", "end", "cbegin", "cend", "rbegin", "rend",
                     "crbegin", "crend", "data"}))
    return TorchCallKind::ContainerIterator;
  return TorchCallKind::Other;
}

TorchCallKind classifyCall(const CallExpr *Call) {
  const FunctionDecl *FD = calleeOf(Call);
  if (!FD)
    return TorchCallKind::Other;
  const auto *Method = dyn_cast<CXXMethodDecl>(FD);
  if (!Method || Method->isStatic())
    return classifyFreeFunction(FD, Call);

  const Expr *Object = callObject(Call);
  QualType ObjectType = Object ? Object->getType() : QualType();
  std::string Name = FD->getNameAsString();

  if (isModuleType(ObjectType)) {
    if (Name == "to" || Name == "cuda" || Name == "cpu")
      return TorchCallKind::ModuleMigration;
    if (Name == "forward" || Name == "operator()")
      return TorchCallKind::ModuleForward;
    return TorchCallKind::Other;
  }
  if (isTensorType(ObjectType) || isTensorClass(Method->getParent()))
    return classifyTensorMethod(Name, Call);
  if (isTensorOptionsType(ObjectType))
    return classifyTensorOptionsSetter(Name, Call);
  if (isTensorContainerType(ObjectType))
    return classifyContainerMethod(Name, Call);
  return TorchCallKind::Other;
}

const Expr *lossPrediction(const CallExpr *Call) {
  const Expr *Object = callObject(Call);
  bool IsLoss =
      classifyCall(Call) == TorchCallKind::LossFunction ||
      (Object && moduleReturnsScalar(moduleClassOf(Object->getType())));
  if (!IsLoss)
    return nullptr;
  for (const Expr *Input : tensorOperands(Call))
    if (Input != Object)
      return Input;
  return nullptr;
}

/// Whether E makes new options from nothing but plain values
/// (`CrossEntropyFuncOptions()`, `Conv2dOptions(3, 16, 3)`): they hold no
/// tensor until a setter gives them one.
static bool isNewOptions(const Expr *E) {
  const auto *Construct = dyn_cast<CXXConstructExpr>(E->IgnoreImplicit());
  return Construct &&
         llvm::none_of(Construct->arguments(), [](const Expr *Arg) {
           return isModuleOptionsType(Arg->getType()) ||
                  isTensorType(Arg->getType());
         });
}

/// The tensors given to the setters of the options that Arg builds, as
/// written in its chain: `CrossEntropyFuncOptions().weight(w).reduction(...)`
/// gives `w`. Options that come from elsewhere (a variable, a helper's
/// result) give themselves: their value says where the tensors they were
/// given are.
static void collectOptionsTensors(const Expr *Arg,
                                  llvm::SmallVectorImpl<const Expr *> &Out) {
  for (unsigned Depth = 0; Arg && Depth < 32; ++Depth) {
    Arg = ignoreValuePreserving(Arg);
    const auto *Setter = dyn_cast<CXXMemberCallExpr>(Arg);
    if (!Setter || !isModuleOptionsType(Setter->getObjectType())) {
      if (!isNewOptions(Arg))
        Out.push_back(Arg);
      return;
    }
    for (const Expr *Value : Setter->arguments())
      if (isTensorType(Value->getType()))
        Out.push_back(Value);
    Arg = Setter->getImplicitObjectArgument();
  }
}

/// `x.expand_as(y)`, `x.view_as(y)`, `x.reshape_as(y)`: y gives its shape
/// only, never its data, so it may be on any device.
static bool takesOnlyShapeOfArgument(const CallExpr *Call) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(calleeOf(Call));
  return Method && isTensorClass(Method->getParent()) &&
         isOneOf(plainName(Method), {"expand_as", "view_as", "reshape_as"});
}

const Expr *underListConversions(const Expr *E) {
  while (true) {
    E = E->IgnoreImplicit();
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
        Construct && Construct->getNumArgs() >= 1) {
      E = Construct->getArg(0);
      continue;
    }
    if (const auto *Std = dyn_cast<CXXStdInitializerListExpr>(E)) {
      E = Std->getSubExpr();
      continue;
    }
    return E;
  }
}

llvm::SmallVector<const Expr *, 4> tensorOperands(const CallExpr *Call) {
  llvm::SmallVector<const Expr *, 4> Operands;
  const Expr *Object = callObject(Call);
  if (Object && isTensorType(Object->getType()))
    Operands.push_back(Object);
  if (takesOnlyShapeOfArgument(Call))
    return Operands;
  unsigned First = (isa<CXXOperatorCallExpr>(Call) && Object) ? 1 : 0;
  for (unsigned I = First, N = Call->getNumArgs(); I < N; ++I) {
    const Expr *Arg = Call->getArg(I);
    if (isa<CXXDefaultArgExpr>(Arg))
      continue;
    if (isTensorType(Arg->getType())) {
      Operands.push_back(Arg);
      continue;
    }
    if (isModuleOptionsType(Arg->getType())) {
      collectOptionsTensors(Arg, Operands);
      continue;
    }
    if (!isTensorSequenceType(Arg->getType()))
      continue;
    // torch::cat({a, b}): the braced list, under conversions.
    const Expr *Inner = underListConversions(Arg);
    if (const auto *List = dyn_cast<InitListExpr>(Inner)) {
      for (const Expr *Element : List->inits())
        if (isTensorType(Element->getType()))
          Operands.push_back(Element);
    } else if (isTensorContainerType(Inner->getType())) {
      // torch::stack(states): the container, whose value is its elements'.
      Operands.push_back(Inner);
    }
  }
  return Operands;
}

bool isInPlaceCall(const CallExpr *Call) {
  const FunctionDecl *Callee = calleeOf(Call);
  return Callee && isInLibTorchNamespace(Callee) &&
         plainName(Callee).ends_with("_");
}

std::optional<InPlaceWrite> inPlaceWriteOf(const CallExpr *Call) {
  const FunctionDecl *Callee = calleeOf(Call);
  if (!Callee)
    return std::nullopt;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
      Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
    const Expr *Target = Op->getArg(0);
    bool IntoPart = viewedStorage(Target) != ignoreValuePreserving(Target);
    if (!IntoPart || !isTensorType(Op->getArg(1)->getType()))
      return std::nullopt;
    return InPlaceWrite{Target, Op->getArg(1)};
  }
  const Expr *Object = callObject(Call);
  if (!Object || !isTensorType(Object->getType()) ||
      !isInLibTorchNamespace(Callee))
    return std::nullopt;
  llvm::StringRef Name = plainName(Callee);
  // The written values are the last tensor argument of each.
  if (!isOneOf(Name, {"copy_", "index_put_", "index_copy_", "masked_scatter_",
                      "scatter_", "index_add_"}))
    return std::nullopt;
  for (unsigned I = Call->getNumArgs(); I > firstParameterArgument(Call); --I)
    if (isTensorType(Call->getArg(I - 1)->getType()))
      return InPlaceWrite{Object, Call->getArg(I - 1)};
  return std::nullopt;
}

/// The tensor or container that Call takes a part of, by the rules of
/// viewedStorage, one step: `buf` for `buf[i]`, `buf.index({i})`,
/// `buf.select(0, i)`, `v.at(i)`. Null when Call takes no part.
static const Expr *partOwner(const CallExpr *Call) {
  const FunctionDecl *Callee = calleeOf(Call);
  if (!Callee)
    return nullptr;
  const Expr *Object = nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
      Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2)
    Object = Op->getArg(0);
  else if (isOneOf(plainName(Callee),
                   {"index", "select", "narrow", "slice", "at"}))
    Object = callObject(Call);
  else if (isOneOf(plainName(Callee), {"front", "back"}) &&
           Call->getNumArgs() == 0)
    Object = callObject(Call);
  if (!Object)
    return nullptr;
  if (isTensorContainerType(Object->getType()))
    return Object;
  // A tensor's `front` is no element access.
  if (!isTensorType(Object->getType()) ||
      isOneOf(plainName(Callee), {"front", "back"}))
    return nullptr;
  return Object;
}

const Expr *viewedStorage(const Expr *E) {
  E = ignoreValuePreserving(E);
  const Expr *Owner = partOwner(dyn_cast<CallExpr>(E));
  return Owner ? viewedStorage(Owner) : E;
}

/// Whether S is, or has under it, an expression of tensor type.
static bool mentionsTensor(const Stmt *S) {
  if (const auto *E = dyn_cast_or_null<Expr>(S);
      E && isTensorType(E->getType()))
    return true;
  return S && llvm::any_of(S->children(), mentionsTensor);
}

const Expr *hostIndexedStorage(const Expr *E) {
  E = ignoreValuePreserving(E);
  const auto *Call = dyn_cast<CallExpr>(E);
  const Expr *Owner = partOwner(Call);
  if (!Owner)
    return E;
  // `x[mask]`, `x.index({idx})`: a gather, which the device computes. (A
  // subscript's first argument, and a method's object, is Owner.)
  unsigned FirstIndex = isa<CXXOperatorCallExpr>(Call) ? 1 : 0;
  for (unsigned I = FirstIndex; I < Call->getNumArgs(); ++I)
    if (mentionsTensor(Call->getArg(I)))
      return nullptr;
  return hostIndexedStorage(Owner);
}

const Expr *containerSlotIndex(const Expr *E) {
  const auto *Call = dyn_cast<CallExpr>(ignoreValuePreserving(E));
  const FunctionDecl *Callee = calleeOf(Call);
  if (!Callee)
    return nullptr;
  const Expr *Container = nullptr, *Index = nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
      Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2) {
    Container = Op->getArg(0);
    Index = Op->getArg(1);
  } else if (plainName(Callee) == "at" && Call->getNumArgs() == 1) {
    Container = callObject(Call);
    Index = Call->getArg(0);
  }
  if (!Container || !isTensorContainerType(Container->getType()))
    return nullptr;
  return Index;
}

unsigned firstAppendedArgument(const CallExpr *Call) {
  return isOneOf(plainName(calleeOf(Call)), {"insert", "emplace"}) ? 1 : 0;
}

const Expr *containerOfElement(const Expr *E) {
  const auto *Call = dyn_cast<CallExpr>(ignoreValuePreserving(E));
  const Expr *Owner = Call ? partOwner(Call) : nullptr;
  return Owner && isTensorContainerType(Owner->getType()) ? Owner : nullptr;
}

bool isScalarTensorLiteral(const CallExpr *Call) {
  if (explicitArgCount(Call) != 1)
    return false;
  const Expr *Arg = Call->getArg(0);
  while (true) {
    Arg = Arg->IgnoreImplicit();
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Arg);
        Construct && Construct->getNumArgs() == 1) {
      Arg = Construct->getArg(0);
      continue;
    }
    break;
  }
  if (isa<InitListExpr>(Arg) || isa<CXXStdInitializerListExpr>(Arg))
    return false;
  return Arg->getType()->isArithmeticType();
}

/// What a list argument is under the conversions to IntArrayRef or
/// initializer_list: the braced list (`{n, m}`), the empty list (`{}`,
/// `IntArrayRef()`: EmptyList set), or neither (List null).
struct ListArgument {
  const InitListExpr *List = nullptr;
  bool EmptyList = false;
};
static ListArgument listArgument(const Expr *Arg) {
  if (!Arg || isa<CXXDefaultArgExpr>(Arg))
    return {};
  Arg = Arg->IgnoreImplicit();
  while (const auto *Construct = dyn_cast<CXXConstructExpr>(Arg)) {
    if (Construct->getNumArgs() == 0)
      return {nullptr, true};
    Arg = Construct->getArg(0)->IgnoreImplicit();
  }
  if (const auto *Std = dyn_cast<CXXStdInitializerListExpr>(Arg))
    Arg = Std->getSubExpr()->IgnoreImplicit();
  const auto *List = dyn_cast<InitListExpr>(Arg);
  return {List, List && List->getNumInits() == 0};
}

/// The number of elements of a list argument; none for anything else.
static std::optional<unsigned> bracedListSize(const Expr *Arg) {
  ListArgument Argument = listArgument(Arg);
  if (Argument.EmptyList)
    return 0;
  if (Argument.List)
    return Argument.List->getNumInits();
  return std::nullopt;
}

std::optional<unsigned> factoryRank(const CallExpr *Call) {
  TorchCallKind Kind = classifyCall(Call);
  if (isScalarFactoryCall(Call))
    return 0;
  llvm::StringRef Name = plainName(calleeOf(Call));
  if (Kind == TorchCallKind::TensorLiteral) {
    // A flat list of numbers: one dimension. (Nested lists: not counted.)
    const InitListExpr *List =
        Call->getNumArgs() ? listArgument(Call->getArg(0)).List : nullptr;
    if (!List)
      return std::nullopt;
    bool Flat = llvm::all_of(List->inits(), [](const Expr *Element) {
      Element = Element->IgnoreImplicit();
      while (const auto *Construct = dyn_cast<CXXConstructExpr>(Element)) {
        if (Construct->getNumArgs() != 1)
          return false;
        Element = Construct->getArg(0)->IgnoreImplicit();
      }
      return Element->getType()->isArithmeticType();
    });
    return Flat ? std::optional(1u) : std::nullopt;
  }
  if (Kind == TorchCallKind::FromBlob)
    return Call->getNumArgs() > 1 ? bracedListSize(Call->getArg(1))
                                  : std::nullopt;
  if (Kind != TorchCallKind::Factory)
    return std::nullopt;
  if (isOneOf(Name, {"arange", "linspace", "logspace", "randperm"}))
    return 1;
  if (isOneOf(Name, {"zeros", "ones", "empty", "rand", "randn", "full",
                     "randint"}) &&
      Call->getNumArgs() > 0) {
    // randint(high, {sizes}) and randint(low, high, {sizes}): the first
    // braced argument.
    for (const Expr *Arg : Call->arguments())
      if (std::optional<unsigned> Size = bracedListSize(Arg))
        return Size;
  }
  return std::nullopt;
}

std::optional<unsigned>
opResultRank(const CallExpr *Call,
             llvm::ArrayRef<std::optional<unsigned>> OperandRanks) {
  const FunctionDecl *Callee = calleeOf(Call);
  if (!Callee || OperandRanks.empty())
    return std::nullopt;
  llvm::StringRef Name = plainName(Callee);
  OverloadedOperatorKind Operator = Callee->getOverloadedOperator();
  unsigned Explicit = explicitArgCount(Call);
  if (isOneOf(Name, {"view", "reshape", "expand"}) && Explicit >= 1)
    return bracedListSize(Call->getArg(firstParameterArgument(Call)));
  if (!OperandRanks.front())
    return std::nullopt;
  if (Name == "unsqueeze")
    return *OperandRanks.front() + 1;
  if (Name == "flatten" && Explicit == 0)
    return 1;
  bool KeepsRank =
      Operator == OO_Plus || Operator == OO_Minus || Operator == OO_Star ||
      Operator == OO_Slash ||
      isOneOf(Name, {"add", "sub", "mul", "div", "pow", "neg", "abs", "exp",
                     "log", "sqrt", "relu", "sigmoid", "tanh", "clamp",
                     "softmax", "log_softmax", "float", "double", "toType",
                     "type", "contiguous", "clone", "permute", "transpose",
                     "t", "flip"});
  if (!KeepsRank)
    return std::nullopt;
  unsigned Rank = 0;
  for (const std::optional<unsigned> &Operand : OperandRanks) {
    if (!Operand)
      return std::nullopt;
    Rank = std::max(Rank, *Operand);
  }
  return Rank;
}

std::optional<unsigned> dimensionsDroppedByPart(const CallExpr *Call) {
  const FunctionDecl *Callee = calleeOf(Call);
  if (!Callee)
    return std::nullopt;
  auto IsInteger = [](const Expr *Index) {
    return Index->IgnoreImpCasts()->getType()->isIntegerType();
  };
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
      Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2)
    return IsInteger(Op->getArg(1)) ? std::optional(1u) : std::nullopt;
  llvm::StringRef Name = plainName(Callee);
  unsigned First = firstParameterArgument(Call);
  if (Name == "select" && Call->getNumArgs() >= First + 2 &&
      IsInteger(Call->getArg(First + 1)))
    return 1;
  if (isOneOf(Name, {"narrow", "slice"}))
    return 0;
  return std::nullopt;
}

bool isIndexedWithTensor(const CallExpr *Call) {
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
  return Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2 &&
         isTensorType(Op->getArg(1)->getType());
}

const Expr *wrappedHostMemory(const CallExpr *Call) {
  if (classifyCall(Call) != TorchCallKind::FromBlob || Call->getNumArgs() == 0)
    return nullptr;
  // The data argument is a void *: strip the conversions to it.
  const Expr *Data = Call->getArg(0)->IgnoreParenCasts();
  // `&buf[0]`: the first element's address.
  if (const auto *AddressOf = dyn_cast<UnaryOperator>(Data);
      AddressOf && AddressOf->getOpcode() == UO_AddrOf) {
    const Expr *Element = AddressOf->getSubExpr()->IgnoreParens();
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(Element))
      return Subscript->getBase()->IgnoreParenImpCasts();
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Element);
        Op && Op->getOperator() == OO_Subscript)
      return Op->getArg(0)->IgnoreParenImpCasts();
    return nullptr;
  }
  // `buf.data()`, `image.data_ptr()`, `mat.ptr()`: the memory of the object.
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Data)) {
    const CXXMethodDecl *Method = Member->getMethodDecl();
    if (Method && Method->getIdentifier() && Member->getNumArgs() == 0 &&
        isOneOf(Method->getName(), {"data", "data_ptr", "ptr"}))
      return Member->getImplicitObjectArgument()->IgnoreParenImpCasts();
    return nullptr;
  }
  // An array. (Not a pointer variable: the memory it points to has other
  // names.)
  return isa<DeclRefExpr>(Data) && Data->getType()->isArrayType() ? Data
                                                                  : nullptr;
}

bool isRepeatableLibTorchCall(const CallExpr *Call) {
  const FunctionDecl *Callee = calleeOf(Call);
  if (!Callee || !isInLibTorchNamespace(Callee))
    return false;
  llvm::StringRef Name = plainName(Callee);
  bool IsOperator = Callee->getOverloadedOperator() != OO_None;
  if (!IsOperator && Name.ends_with("_"))
    return false; // In place.
  if (Name.starts_with("rand") || Name.starts_with("empty") ||
      isOneOf(Name, {"bernoulli", "multinomial", "normal", "poisson"}) ||
      Name.contains("dropout"))
    return false;
  switch (classifyCall(Call)) {
  case TorchCallKind::Migration: {
    TransferTarget Target = transferTarget(Call);
    return Target == TransferTarget::None || Target == TransferTarget::Host;
  }
  case TorchCallKind::CrossDevice:
  case TorchCallKind::Backward:
  case TorchCallKind::RequiresGrad:
  case TorchCallKind::InPlaceAccumulate:
  case TorchCallKind::ModuleForward:
  case TorchCallKind::ModuleMigration:
  case TorchCallKind::ModuleConstruction:
    return false;
  default:
    // An assignment operator, or any other method that changes its object.
    if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
        Method && !Method->isStatic() && !Method->isConst() &&
        !isTensorOptionsType(Method->getThisType()->getPointeeType()))
      return false;
    return true;
  }
}

bool isScalarFactoryCall(const Expr *E) {
  const auto *Call = dyn_cast_or_null<CallExpr>(ignoreValuePreserving(E));
  if (!Call)
    return false;
  TorchCallKind Kind = classifyCall(Call);
  if (Kind == TorchCallKind::TensorLiteral)
    return isScalarTensorLiteral(Call);
  if (Kind != TorchCallKind::Factory)
    return false;
  if (plainName(Call->getDirectCallee()) == "scalar_tensor")
    return true;
  // torch::zeros({}) / torch::ones({}): an empty size list.
  return Call->getNumArgs() > 0 && listArgument(Call->getArg(0)).EmptyList;
}

/// The setting `enabled` asks for, as far as it is a constant.
static GradModeSetting settingOf(const Expr *Enabled, const ASTContext &Ctx) {
  bool Value;
  // A template's own body (not an instantiation) may depend on its
  // parameters: clang evaluates no such expression.
  if (Enabled->isValueDependent() ||
      !Enabled->EvaluateAsBooleanCondition(Value, Ctx))
    return GradModeSetting::Unknown;
  return Value ? GradModeSetting::On : GradModeSetting::Off;
}

GradModeSetting gradModeSetByGuard(const VarDecl &Var, const ASTContext &Ctx) {
  const CXXRecordDecl *RD = recordOf(Var.getType());
  if (isRecordNamed(RD, "c10::NoGradGuard") ||
      isRecordNamed(RD, "at::NoGradGuard"))
    return GradModeSetting::Off;
  // AutoGradMode(bool enabled) sets recording to its argument;
  // InferenceMode(bool enabled = true) to the opposite of its.
  bool SetsToArgument = isRecordNamed(RD, "c10::AutoGradMode");
  if (!SetsToArgument && !isRecordNamed(RD, "c10::InferenceMode"))
    return GradModeSetting::None;
  const Expr *Init = Var.getInit();
  const auto *Construct =
      Init ? dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit()) : nullptr;
  if (!Construct || Construct->getNumArgs() == 0 ||
      isa<CXXDefaultArgExpr>(Construct->getArg(0)))
    return SetsToArgument ? GradModeSetting::Unknown : GradModeSetting::Off;
  GradModeSetting Asked = settingOf(Construct->getArg(0), Ctx);
  if (SetsToArgument || Asked == GradModeSetting::Unknown)
    return Asked;
  return Asked == GradModeSetting::On ? GradModeSetting::Off
                                      : GradModeSetting::On;
}

GradModeSetting gradModeSetByCall(const CallExpr &Call, const ASTContext &Ctx) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(calleeOf(&Call));
  if (!Method || plainName(Method) != "set_enabled" ||
      !isRecordNamed(Method->getParent(), "c10::GradMode") ||
      Call.getNumArgs() != 1)
    return GradModeSetting::None;
  return settingOf(Call.getArg(0), Ctx);
}

const Expr *iteratedContainer(const Expr *E) {
  const auto *Call = dyn_cast<CXXMemberCallExpr>(ignoreValuePreserving(E));
  if (!Call || classifyCall(Call) != TorchCallKind::ContainerIterator)
    return nullptr;
  return Call->getImplicitObjectArgument();
}

std::optional<StdCopy> stdCopyOf(const CallExpr *Call) {
  const FunctionDecl *Callee = calleeOf(Call);
  if (!Callee || !isInStandardLibrary(Callee) || !Callee->getIdentifier())
    return std::nullopt;
  // (first, last, out, ...) or, for copy_n, (first, n, out).
  llvm::StringRef Name = Callee->getName();
  if (!isOneOf(Name, {"copy", "copy_n", "copy_if", "sample", "move",
                      "copy_backward", "move_backward", "reverse_copy"}) ||
      Call->getNumArgs() < 3)
    return std::nullopt;
  const Expr *Source = iteratedContainer(Call->getArg(0));
  const Expr *Out = Call->getArg(2)->IgnoreImplicit();
  // std::back_inserter(out), std::inserter(out, it), out.begin().
  if (const auto *Inserter = dyn_cast<CallExpr>(ignoreValuePreserving(Out));
      Inserter && Inserter->getNumArgs() >= 1 &&
      isOneOf(plainName(calleeOf(Inserter)),
              {"back_inserter", "front_inserter", "inserter"}))
    Out = Inserter->getArg(0);
  else
    Out = iteratedContainer(Out);
  if (!Source || !Out || !isTensorContainerType(Out->getType()))
    return std::nullopt;
  return StdCopy{Source, Out};
}

bool onlyReadsIterators(const CallExpr *Call) {
  const FunctionDecl *Callee = calleeOf(Call);
  return Callee && isInStandardLibrary(Callee) && Callee->getIdentifier() &&
         isOneOf(Callee->getName(),
                 {"distance", "next", "prev", "advance", "find", "find_if",
                  "count", "count_if", "accumulate", "min_element",
                  "max_element", "any_of", "all_of", "none_of"});
}

} // namespace torchtidy
