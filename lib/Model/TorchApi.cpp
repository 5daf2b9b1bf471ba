//===--- TorchApi.cpp - What LibTorch APIs do to devices ------------------===//

#include "Model/TorchApi.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/TemplateBase.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace torchtidy {
namespace {

/// "at::Tensor" for at::Tensor, ignoring inline and anonymous namespaces
/// (libstdc++'s std::__cxx11, libc++'s std::__1).
std::string stableQualifiedName(const NamedDecl *D) {
  std::string Name = D->getNameAsString();
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC)) {
      if (NS->isInline() || NS->isAnonymousNamespace())
        continue;
      Name = NS->getNameAsString() + "::" + Name;
    } else if (const auto *RD = dyn_cast<RecordDecl>(DC)) {
      Name = RD->getNameAsString() + "::" + Name;
    }
  }
  return Name;
}

const CXXRecordDecl *recordOf(QualType T) {
  if (T.isNull())
    return nullptr;
  T = T.getNonReferenceType().getCanonicalType();
  if (const auto *RD = T->getAsCXXRecordDecl())
    return RD;
  return nullptr;
}

bool isRecordNamed(const CXXRecordDecl *RD, llvm::StringRef QualifiedName) {
  return RD && stableQualifiedName(RD) == QualifiedName;
}

/// Whether RD is QualifiedName or derives from it (through any base path).
bool isOrDerivesFrom(const CXXRecordDecl *RD, llvm::StringRef QualifiedName,
                     unsigned Depth = 0) {
  if (!RD || Depth > 16)
    return false;
  if (isRecordNamed(RD, QualifiedName))
    return true;
  if (!RD->hasDefinition())
    return false;
  for (const CXXBaseSpecifier &Base : RD->getDefinition()->bases())
    if (isOrDerivesFrom(recordOf(Base.getType()), QualifiedName, Depth + 1))
      return true;
  return false;
}

/// The first template argument of a specialization, as a type.
QualType firstTemplateTypeArgument(const CXXRecordDecl *RD) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || Spec->getTemplateArgs().size() == 0)
    return QualType();
  const TemplateArgument &Arg = Spec->getTemplateArgs()[0];
  return Arg.getKind() == TemplateArgument::Type ? Arg.getAsType() : QualType();
}

/// The ModuleHolder<Impl> base of a holder class such as torch::nn::Linear.
const CXXRecordDecl *moduleHolderImpl(const CXXRecordDecl *RD,
                                      unsigned Depth = 0) {
  if (!RD || Depth > 16)
    return nullptr;
  if (isRecordNamed(RD, "torch::nn::ModuleHolder"))
    return recordOf(firstTemplateTypeArgument(RD));
  if (!RD->hasDefinition())
    return nullptr;
  for (const CXXBaseSpecifier &Base : RD->getDefinition()->bases())
    if (const CXXRecordDecl *Impl =
            moduleHolderImpl(recordOf(Base.getType()), Depth + 1))
      return Impl;
  return nullptr;
}

const CXXRecordDecl *pointeeRecord(QualType T) {
  if (T.isNull())
    return nullptr;
  T = T.getNonReferenceType().getCanonicalType();
  if (const auto *PT = T->getAs<PointerType>())
    return recordOf(PT->getPointeeType());
  return recordOf(T);
}

bool isTensorClass(const CXXRecordDecl *RD) {
  return isRecordNamed(RD, "at::Tensor") || isRecordNamed(RD, "at::TensorBase");
}

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

const FunctionDecl *calleeOf(const CallExpr *Call) {
  return Call ? Call->getDirectCallee() : nullptr;
}

llvm::StringRef plainName(const NamedDecl *D) {
  if (!D || !D->getDeclName().isIdentifier())
    return "";
  return D->getName();
}

bool isOneOf(llvm::StringRef Name,
             std::initializer_list<llvm::StringLiteral> Names) {
  return llvm::is_contained(Names, Name);
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

/// `true`, written or as a default argument (`torch::requires_grad()`).
bool isLiteralTrue(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
    E = Default->getExpr()->IgnoreParenImpCasts();
  if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(E))
    return B->getValue();
  return false;
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
  if (isTensorOptionsType(FD->getReturnType())) {
    if (Name == "device")
      return TorchCallKind::TensorOptionsSet;
    if (Name == "requires_grad" && Call->getNumArgs() > 0 &&
        isLiteralTrue(Call->getArg(0)))
      return TorchCallKind::RequiresGrad;
    return TorchCallKind::TensorOptionsKeep;
  }
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

bool isTensorType(QualType T) { return isTensorClass(recordOf(T)); }

bool isModuleClass(const CXXRecordDecl *RD) {
  return isOrDerivesFrom(RD, "torch::nn::Module");
}

bool isTensorOptionsType(QualType T) {
  return isRecordNamed(recordOf(T), "c10::TensorOptions");
}

bool isDeviceSpecType(QualType T) {
  if (T.isNull())
    return false;
  QualType C = T.getNonReferenceType().getCanonicalType();
  if (const auto *ET = C->getAs<EnumType>())
    return stableQualifiedName(ET->getDecl()) == "c10::DeviceType";
  const CXXRecordDecl *RD = recordOf(C);
  return isRecordNamed(RD, "c10::Device") ||
         isRecordNamed(RD, "c10::TensorOptions");
}

bool isTensorContainerType(QualType T) {
  const CXXRecordDecl *RD = recordOf(T);
  if (!RD)
    return false;
  if (!isRecordNamed(RD, "std::vector") && !isRecordNamed(RD, "std::deque") &&
      !isRecordNamed(RD, "std::list"))
    return false;
  return isTensorType(firstTemplateTypeArgument(RD));
}

bool isBatchExampleType(QualType T) {
  return isRecordNamed(recordOf(T), "torch::data::Example");
}

/// Whether a template argument is, or packs, a tensor or a tensor tuple.
static bool holdsTensor(const TemplateArgument &Arg, unsigned Depth) {
  if (Arg.getKind() == TemplateArgument::Pack)
    return llvm::any_of(Arg.pack_elements(), [&](const TemplateArgument &E) {
      return holdsTensor(E, Depth);
    });
  if (Arg.getKind() != TemplateArgument::Type)
    return false;
  QualType T = Arg.getAsType();
  if (isTensorType(T))
    return true;
  // Nested: LSTM's tuple<Tensor, tuple<Tensor, Tensor>>.
  const auto *Spec =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(recordOf(T));
  return Depth < 4 && Spec &&
         (isRecordNamed(Spec, "std::pair") ||
          isRecordNamed(Spec, "std::tuple")) &&
         llvm::any_of(Spec->getTemplateArgs().asArray(),
                      [&](const TemplateArgument &E) {
                        return holdsTensor(E, Depth + 1);
                      });
}

bool isTensorTupleType(QualType T) {
  const auto *Spec =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(recordOf(T));
  if (!Spec ||
      (!isRecordNamed(Spec, "std::pair") && !isRecordNamed(Spec, "std::tuple")))
    return false;
  return llvm::any_of(
      Spec->getTemplateArgs().asArray(),
      [](const TemplateArgument &Arg) { return holdsTensor(Arg, 0); });
}

std::optional<unsigned> pairMemberIndex(const MemberExpr *Member) {
  // Methods (swap, operator=, the destructor) are members too.
  const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
  if (!Field || !Field->getIdentifier() ||
      !isTensorTupleType(Member->getBase()->getType()))
    return std::nullopt;
  llvm::StringRef Name = Field->getName();
  if (Name == "first")
    return 0;
  if (Name == "second")
    return 1;
  return std::nullopt;
}

std::optional<unsigned> exampleMemberIndex(const MemberExpr *Member) {
  const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
  if (!Field || !Field->getIdentifier() ||
      !isBatchExampleType(Member->getBase()->getType()))
    return std::nullopt;
  if (Field->getName() == "data")
    return 0;
  if (Field->getName() == "target")
    return 1;
  return std::nullopt;
}

std::optional<unsigned> tupleElementIndex(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || Call->getNumArgs() != 1 || !FD->getIdentifier() ||
      FD->getName() != "get" || !isInStandardLibrary(FD) ||
      !isTensorTupleType(Call->getArg(0)->getType()))
    return std::nullopt;
  const TemplateArgumentList *Args = FD->getTemplateSpecializationArgs();
  if (!Args || Args->size() == 0 ||
      Args->get(0).getKind() != TemplateArgument::Integral)
    return std::nullopt; // std::get<Type>(t)
  return static_cast<unsigned>(Args->get(0).getAsIntegral().getZExtValue());
}

bool isTieCall(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  return FD && FD->getIdentifier() && FD->getName() == "tie" &&
         isInStandardLibrary(FD) && isTensorTupleType(Call->getType());
}

bool isGradDisablingGuardType(QualType T) {
  const CXXRecordDecl *RD = recordOf(T);
  return isRecordNamed(RD, "c10::NoGradGuard") ||
         isRecordNamed(RD, "c10::InferenceMode") ||
         isRecordNamed(RD, "at::NoGradGuard");
}

const CXXRecordDecl *moduleClassOf(QualType T) {
  const CXXRecordDecl *RD = pointeeRecord(T);
  if (!RD)
    return nullptr;
  if (isRecordNamed(RD, "std::shared_ptr")) {
    const CXXRecordDecl *Pointee = recordOf(firstTemplateTypeArgument(RD));
    return isModuleClass(Pointee) ? Pointee : nullptr;
  }
  if (const CXXRecordDecl *Impl = moduleHolderImpl(RD))
    return Impl;
  return isModuleClass(RD) ? RD : nullptr;
}

bool isModuleType(QualType T) { return moduleClassOf(T) != nullptr; }

bool isModuleHandleType(QualType T) {
  const CXXRecordDecl *Module = moduleClassOf(T);
  return Module && pointeeRecord(T) != Module;
}

bool isModuleHolderType(QualType T) {
  return moduleHolderImpl(recordOf(T)) != nullptr;
}

bool isModuleRegistrationCall(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !isInLibTorchNamespace(Callee))
    return false;
  llvm::StringRef Name = plainName(Callee);
  return Name == "register_module" || Name == "register_parameter" ||
         Name == "register_buffer";
}

bool isInPlaceCall(const CallExpr *Call) {
  const FunctionDecl *Callee = calleeOf(Call);
  return Callee && isInLibTorchNamespace(Callee) &&
         plainName(Callee).ends_with("_");
}

bool isRegisteredLayerTensor(const FieldDecl *Field) {
  const auto *Layer = dyn_cast_or_null<CXXRecordDecl>(Field->getParent());
  return Layer && isTensorType(Field->getType()) && isModuleClass(Layer) &&
         isInLibTorchNamespace(Layer);
}

bool isLibTorchHeaderName(llvm::StringRef IncludeName) {
  return llvm::any_of(
      std::initializer_list<llvm::StringRef>{"torch/", "ATen/", "c10/",
                                             "caffe2/"},
      [&](llvm::StringRef Root) { return IncludeName.starts_with(Root); });
}

bool isModuleContainerType(QualType T) {
  const CXXRecordDecl *Module = moduleClassOf(T);
  if (!Module || !isInLibTorchNamespace(Module))
    return false;
  return isOneOf(plainName(Module),
                 {"SequentialImpl", "ModuleListImpl", "ModuleDictImpl"});
}

bool isModuleContainerInsertion(const Expr *E) {
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
    return Construct->getNumArgs() > 0 &&
           !Construct->getConstructor()->isCopyOrMoveConstructor() &&
           isModuleContainerType(Construct->getType());
  const auto *Call = dyn_cast<CallExpr>(E);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee)
    return false;
  if (plainName(Callee) == "make_shared" && isInStandardLibrary(Callee))
    return Call->getNumArgs() > 0 && isModuleContainerType(Call->getType());
  const Expr *Object = callObject(Call);
  return Object && isModuleContainerType(Object->getType()) &&
         isOneOf(plainName(Callee),
                 {"push_back", "emplace_back", "extend", "insert", "update"});
}

TorchValueKind classifyType(QualType T) {
  if (isTensorType(T))
    return TorchValueKind::Tensor;
  if (isDeviceSpecType(T))
    return TorchValueKind::DeviceSpec;
  if (isTensorContainerType(T))
    return TorchValueKind::TensorList;
  if (isBatchExampleType(T))
    return TorchValueKind::BatchExample;
  if (isModuleType(T))
    return TorchValueKind::Module;
  if (isTensorTupleType(T))
    return TorchValueKind::TensorTuple;
  return TorchValueKind::None;
}

namespace {
bool holdsParameters(const CXXRecordDecl *ModuleClass, unsigned Depth);

/// Whether S or anything in it is a call that Is accepts.
bool containsCall(const Stmt *S,
                  llvm::function_ref<bool(const CallExpr *)> Is) {
  if (const auto *Call = dyn_cast_or_null<CallExpr>(S); Call && Is(Call))
    return true;
  return S && llvm::any_of(S->children(), [&](const Stmt *Child) {
           return containsCall(Child, Is);
         });
}

/// A registration that gives a module state: register_parameter,
/// register_buffer, or register_module of a module that holds parameters.
bool isStatefulRegistration(const CallExpr *Call, unsigned Depth) {
  if (!isModuleRegistrationCall(Call))
    return false;
  const CXXRecordDecl *Registered = moduleClassOf(Call->getType());
  return !Registered || holdsParameters(Registered, Depth + 1);
}

/// A call of torch::nn::Module::is_training().
bool isTrainingModeRead(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  return Callee && plainName(Callee) == "is_training" &&
         isInLibTorchNamespace(Callee);
}

/// The definition of a method as written: for a member of a class template
/// instantiation, the template's (instantiations define only what is used).
const FunctionDecl *writtenDefinition(const CXXMethodDecl *Method) {
  const FunctionDecl *Written = Method->getTemplateInstantiationPattern();
  if (!Written)
    Written = Method;
  const FunctionDecl *Definition = nullptr;
  return Written->hasBody(Definition) ? Definition : nullptr;
}

/// A constructor or method the class declares but this translation unit does
/// not define: what it does cannot be seen.
bool isDefinedElsewhere(const CXXMethodDecl *Method) {
  return !Method->isImplicit() && !Method->isDefaulted() &&
         !Method->isDeleted() && !Method->isPureVirtual() &&
         !writtenDefinition(Method);
}

/// The user module classes this one derives from (LibTorch's own bases,
/// Module and Cloneable, say nothing about it).
llvm::SmallVector<const CXXRecordDecl *, 2>
userModuleBases(const CXXRecordDecl *Def) {
  llvm::SmallVector<const CXXRecordDecl *, 2> Bases;
  for (const CXXBaseSpecifier &Base : Def->bases())
    if (const CXXRecordDecl *RD = recordOf(Base.getType());
        RD && isModuleClass(RD) && !isInLibTorchNamespace(RD))
      Bases.push_back(RD);
  return Bases;
}

/// Past this many nested module classes the answer is "it may".
constexpr unsigned MaxModuleNesting = 8;

bool dependsOnTrainingMode(const CXXRecordDecl *ModuleClass, unsigned Depth);

/// A module of the user's behaves by mode when its code reads is_training(),
/// when it holds a module that does, or when code that could do either is
/// defined in another translation unit.
bool userModuleDependsOnTrainingMode(const CXXRecordDecl *ModuleClass,
                                     unsigned Depth) {
  const CXXRecordDecl *Def = ModuleClass->getDefinition();
  if (!Def || Depth > MaxModuleNesting)
    return true;
  for (const CXXMethodDecl *Method : Def->methods()) {
    if (isDefinedElsewhere(Method))
      return true;
    if (const FunctionDecl *Definition = writtenDefinition(Method);
        Definition && containsCall(Definition->getBody(), isTrainingModeRead))
      return true;
  }
  for (const FieldDecl *Field : Def->fields())
    if (const CXXRecordDecl *Sub = moduleClassOf(Field->getType());
        Sub && dependsOnTrainingMode(Sub, Depth + 1))
      return true;
  return llvm::any_of(userModuleBases(Def), [&](const CXXRecordDecl *Base) {
    return dependsOnTrainingMode(Base, Depth + 1);
  });
}

bool dependsOnTrainingMode(const CXXRecordDecl *ModuleClass, unsigned Depth) {
  if (!ModuleClass)
    return false;
  if (!llvm::StringRef(stableQualifiedName(ModuleClass))
           .starts_with("torch::nn::"))
    return userModuleDependsOnTrainingMode(ModuleClass, Depth);
  llvm::StringRef Short = plainName(ModuleClass);
  Short.consume_back("Impl");
  return Short.ends_with("Dropout") || Short.starts_with("Dropout");
}

/// A module of the user's holds parameters when it has tensor members or
/// submodules that hold parameters, registers a parameter, a buffer or such a
/// submodule, derives from a module that does, or has a constructor defined
/// in another translation unit (which may register).
bool userModuleHoldsParameters(const CXXRecordDecl *ModuleClass,
                               unsigned Depth) {
  const CXXRecordDecl *Def = ModuleClass->getDefinition();
  if (!Def || Depth > MaxModuleNesting)
    return true; // Declared only: nothing says it has none.
  for (const FieldDecl *Field : Def->fields()) {
    if (isTensorType(Field->getType()) ||
        isTensorContainerType(Field->getType()))
      return true;
    if (const CXXRecordDecl *Sub = moduleClassOf(Field->getType());
        Sub && holdsParameters(Sub, Depth + 1))
      return true;
  }
  for (const CXXConstructorDecl *Ctor : Def->ctors()) {
    if (isDefinedElsewhere(Ctor))
      return true;
    if (const FunctionDecl *Definition = writtenDefinition(Ctor);
        Definition &&
        containsCall(Definition->getBody(), [&](const CallExpr *Call) {
          return isStatefulRegistration(Call, Depth);
        }))
      return true;
  }
  return llvm::any_of(userModuleBases(Def), [&](const CXXRecordDecl *Base) {
    return holdsParameters(Base, Depth + 1);
  });
}

bool holdsParameters(const CXXRecordDecl *ModuleClass, unsigned Depth) {
  if (!ModuleClass)
    return false;
  std::string Name = stableQualifiedName(ModuleClass);
  if (Name == "torch::nn::Module")
    return true; // A type-erased module (e.g. loaded): assume it has weights.
  if (llvm::StringRef(Name).starts_with("torch::nn::")) {
    static const llvm::StringSet<> WithParameters = {"Linear",
                                                     "Bilinear",
                                                     "Conv1d",
                                                     "Conv2d",
                                                     "Conv3d",
                                                     "ConvTranspose1d",
                                                     "ConvTranspose2d",
                                                     "ConvTranspose3d",
                                                     "BatchNorm1d",
                                                     "BatchNorm2d",
                                                     "BatchNorm3d",
                                                     "InstanceNorm1d",
                                                     "InstanceNorm2d",
                                                     "InstanceNorm3d",
                                                     "LayerNorm",
                                                     "GroupNorm",
                                                     "Embedding",
                                                     "EmbeddingBag",
                                                     "RNN",
                                                     "LSTM",
                                                     "GRU",
                                                     "RNNCell",
                                                     "LSTMCell",
                                                     "GRUCell",
                                                     "MultiheadAttention",
                                                     "Transformer",
                                                     "TransformerEncoder",
                                                     "TransformerDecoder",
                                                     "TransformerEncoderLayer",
                                                     "TransformerDecoderLayer",
                                                     "PReLU",
                                                     "Sequential",
                                                     "ModuleList",
                                                     "ModuleDict",
                                                     "ParameterList",
                                                     "ParameterDict"};
    llvm::StringRef Short = plainName(ModuleClass);
    Short.consume_back("Impl");
    return WithParameters.contains(Short);
  }
  return userModuleHoldsParameters(ModuleClass, Depth);
}
} // namespace

bool moduleHoldsParameters(const CXXRecordDecl *ModuleClass) {
  return holdsParameters(ModuleClass, 0);
}

bool moduleDependsOnTrainingMode(const CXXRecordDecl *ModuleClass) {
  return dependsOnTrainingMode(ModuleClass, 0);
}

bool moduleReturnsScalar(const CXXRecordDecl *ModuleClass) {
  if (!ModuleClass)
    return false;
  return llvm::StringRef(stableQualifiedName(ModuleClass))
             .starts_with("torch::nn::") &&
         plainName(ModuleClass).ends_with("LossImpl");
}

/// The top-level namespace a declaration lives in ("" when none), through
/// classes and inline namespaces.
static llvm::StringRef outermostNamespace(const Decl *D) {
  const NamespaceDecl *Outermost = nullptr;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (!NS->isInline() && !NS->isAnonymousNamespace())
        Outermost = NS;
  if (!Outermost ||
      !Outermost->getParent()->getRedeclContext()->isTranslationUnit())
    return "";
  return plainName(Outermost);
}

bool isInLibTorchNamespace(const Decl *D) {
  llvm::StringRef Name = outermostNamespace(D);
  return Name == "at" || Name == "c10" || Name == "torch" || Name == "caffe2";
}

bool isInStandardLibrary(const Decl *D) {
  return outermostNamespace(D) == "std";
}

std::optional<llvm::StringRef> deviceTypeNamed(const ValueDecl *D) {
  if (!D || !isInLibTorchNamespace(D))
    return std::nullopt;
  if (const auto *Enumerator = dyn_cast<EnumConstantDecl>(D)) {
    const auto *Enum = dyn_cast<EnumDecl>(Enumerator->getDeclContext());
    if (!Enum || stableQualifiedName(Enum) != "c10::DeviceType")
      return std::nullopt;
    return llvm::StringSwitch<std::optional<llvm::StringRef>>(
               plainName(Enumerator))
        .Case("CPU", llvm::StringRef("cpu"))
        .Case("CUDA", llvm::StringRef("cuda"))
        .Case("Meta", llvm::StringRef("meta"))
        .Case("MPS", llvm::StringRef("mps"))
        .Case("XPU", llvm::StringRef("xpu"))
        .Case("HIP", llvm::StringRef("hip"))
        .Case("XLA", llvm::StringRef("xla"))
        .Case("Vulkan", llvm::StringRef("vulkan"))
        .Default(std::nullopt);
  }
  // kCUDA and friends: constexpr DeviceType kCUDA = DeviceType::CUDA;
  if (const auto *Var = dyn_cast<VarDecl>(D))
    if (const Expr *Init = Var->getInit())
      if (const auto *Ref = dyn_cast<DeclRefExpr>(Init->IgnoreParenImpCasts()))
        if (Ref->getDecl() != D)
          return deviceTypeNamed(Ref->getDecl());
  return std::nullopt;
}

std::optional<llvm::StringRef> spelledDeviceType(const Expr *E) {
  if (!E)
    return std::nullopt;
  E = E->IgnoreImplicit()->IgnoreParens();
  if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
    return spelledDeviceType(Cast->getSubExpr());
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return deviceTypeNamed(Ref->getDecl());
  if (const auto *String = dyn_cast<StringLiteral>(E)) {
    if (!String->isOrdinary())
      return std::nullopt;
    // "cuda:1" names device 1 of type cuda.
    llvm::StringRef Type = String->getString().split(':').first;
    for (llvm::StringRef Known :
         {"cpu", "cuda", "meta", "mps", "xpu", "hip", "xla", "vulkan"})
      if (Type == Known)
        return Known;
    return std::nullopt;
  }
  // torch::Device(kCUDA, 1), torch::Device("cuda"), TensorOptions(kCUDA) and
  // the std::string a literal converts to on its way.
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
    return Construct->getNumArgs() > 0 ? spelledDeviceType(Construct->getArg(0))
                                       : std::nullopt;
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (classifyCall(Call) == TorchCallKind::TensorOptionsSet)
      return spelledDeviceType(deviceArgument(Call));
  return std::nullopt;
}

TransferTarget transferTarget(const CallExpr *Call) {
  TorchCallKind Kind = classifyCall(Call);
  if (Kind != TorchCallKind::Migration &&
      Kind != TorchCallKind::ModuleMigration)
    return TransferTarget::None;
  llvm::StringRef Name = plainName(Call->getDirectCallee());
  if (Name == "cuda")
    return TransferTarget::OffHost;
  if (Name == "cpu")
    return TransferTarget::Host;
  if (const Expr *Device = deviceArgument(Call)) {
    std::optional<llvm::StringRef> Type = spelledDeviceType(Device);
    if (!Type)
      return TransferTarget::Unknown;
    return *Type == "cpu" ? TransferTarget::Host : TransferTarget::OffHost;
  }
  // .to(other_tensor) follows a device we do not see; .to(kFloat) stays.
  return deviceSourceTensorArgument(Call) ? TransferTarget::Unknown
                                          : TransferTarget::None;
}

bool synchronizesWithHost(const CallExpr *Call) {
  if (transferTarget(Call) == TransferTarget::Host)
    return true;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !isInLibTorchNamespace(Callee))
    return false;
  if (classifyCall(Call) == TorchCallKind::ReadScalar)
    return true;
  if (Callee->getOverloadedOperator() == OO_LessLess)
    return llvm::any_of(Call->arguments(), [](const Expr *Arg) {
      return isTensorType(Arg->getType());
    });
  llvm::StringRef Name = plainName(Callee);
  return Name == "nonzero" || Name == "equal" || Name == "is_nonzero" ||
         Name == "_local_scalar_dense";
}

std::optional<llvm::StringRef> queriedAccelerator(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return std::nullopt;
  // A table, not StringSwitch::Cases, whose spelling LLVM 19 and 22 differ on.
  static const std::pair<llvm::StringRef, llvm::StringRef> Queries[] = {
      {"torch::cuda::is_available", "cuda"},
      {"torch::cuda::device_count", "cuda"},
      {"at::cuda::is_available", "cuda"},
      {"at::cuda::device_count", "cuda"},
      {"at::hasCUDA", "cuda"},
      {"torch::mps::is_available", "mps"},
      {"at::hasMPS", "mps"},
      {"torch::xpu::is_available", "xpu"},
      {"torch::xpu::device_count", "xpu"},
      {"at::hasXPU", "xpu"},
  };
  std::string Name = stableQualifiedName(Callee);
  for (const auto &[Function, Accelerator] : Queries)
    if (Name == Function)
      return Accelerator;
  return std::nullopt;
}

llvm::StringRef availabilityQueryFor(llvm::StringRef DeviceType) {
  return llvm::StringSwitch<llvm::StringRef>(DeviceType)
      .Case("cuda", "torch::cuda::is_available()")
      .Case("mps", "torch::mps::is_available()")
      .Case("xpu", "torch::xpu::is_available()")
      .Default("");
}

std::optional<bool> testsForAcceleratorDevice(const CallExpr *Call) {
  const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
  const CXXMethodDecl *Method = Member ? Member->getMethodDecl() : nullptr;
  if (!Method || !isInLibTorchNamespace(Method) || !Method->getIdentifier())
    return std::nullopt;
  llvm::StringRef Name = Method->getName();
  if (Name == "is_cuda" || Name == "is_mps" || Name == "is_xpu")
    return true;
  if (Name == "is_cpu")
    return false;
  return std::nullopt;
}

bool isDataPipelineMethod(const CXXMethodDecl *Method) {
  if (!Method || isInLibTorchNamespace(Method))
    return false;
  llvm::StringRef Name = plainName(Method);
  const CXXRecordDecl *Class = Method->getParent();
  if (Name == "get" || Name == "get_batch")
    return isOrDerivesFrom(Class, "torch::data::datasets::BatchDataset");
  if (Name == "apply" || Name == "apply_batch")
    return isOrDerivesFrom(Class, "torch::data::transforms::BatchTransform");
  // TensorTransform's apply() hands each example's tensor to operator().
  if (Method->getOverloadedOperator() == OO_Call)
    return isOrDerivesFrom(Class, "torch::data::transforms::TensorTransform");
  return false;
}

const Expr *callObject(const CallExpr *Call) {
  const Expr *Object = nullptr;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
    Object = Member->getImplicitObjectArgument();
  else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
    if (isa_and_nonnull<CXXMethodDecl>(Op->getDirectCallee()) &&
        Op->getNumArgs() > 0)
      Object = Op->getArg(0);
  if (!Object)
    return nullptr;
  // See through holder->method(): operator-> of ModuleHolder / shared_ptr.
  while (true) {
    const Expr *Bare = Object->IgnoreParenImpCasts();
    if (const auto *Arrow = dyn_cast<CXXOperatorCallExpr>(Bare);
        Arrow && Arrow->getOperator() == OO_Arrow && Arrow->getNumArgs() > 0) {
      Object = Arrow->getArg(0);
      continue;
    }
    if (const auto *Deref = dyn_cast<CXXOperatorCallExpr>(Bare);
        Deref && Deref->getOperator() == OO_Star && Deref->getNumArgs() == 1 &&
        isModuleType(Deref->getArg(0)->getType())) {
      Object = Deref->getArg(0);
      continue;
    }
    if (const auto *Unary = dyn_cast<UnaryOperator>(Bare);
        Unary && Unary->getOpcode() == UO_Deref) {
      Object = Unary->getSubExpr();
      continue;
    }
    return Bare;
  }
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
  if (isTensorOptionsType(ObjectType)) {
    if (Name == "device")
      return TorchCallKind::TensorOptionsSet;
    if (Name == "requires_grad" && Call->getNumArgs() > 0 &&
        isLiteralTrue(Call->getArg(0)))
      return TorchCallKind::RequiresGrad;
    return TorchCallKind::TensorOptionsKeep;
  }
  if (isTensorContainerType(ObjectType) &&
      (Name == "push_back" || Name == "emplace_back" || Name == "push_front" ||
       Name == "emplace_front"))
    return TorchCallKind::ContainerAppend;
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

llvm::SmallVector<const Expr *, 4> tensorOperands(const CallExpr *Call) {
  llvm::SmallVector<const Expr *, 4> Operands;
  const Expr *Object = callObject(Call);
  if (Object && isTensorType(Object->getType()))
    Operands.push_back(Object);
  unsigned First = (isa<CXXOperatorCallExpr>(Call) && Object) ? 1 : 0;
  for (unsigned I = First, N = Call->getNumArgs(); I < N; ++I) {
    const Expr *Arg = Call->getArg(I);
    if (isa<CXXDefaultArgExpr>(Arg))
      continue;
    if (isTensorType(Arg->getType())) {
      Operands.push_back(Arg);
      continue;
    }
    if (!isTensorSequenceType(Arg->getType()))
      continue;
    // torch::cat({a, b}): the braced list, under conversions.
    const Expr *Inner = Arg;
    while (true) {
      Inner = Inner->IgnoreImplicit();
      if (const auto *Construct = dyn_cast<CXXConstructExpr>(Inner);
          Construct && Construct->getNumArgs() >= 1) {
        Inner = Construct->getArg(0);
        continue;
      }
      if (const auto *Std = dyn_cast<CXXStdInitializerListExpr>(Inner)) {
        Inner = Std->getSubExpr();
        continue;
      }
      break;
    }
    if (const auto *List = dyn_cast<InitListExpr>(Inner))
      for (const Expr *Element : List->inits())
        if (isTensorType(Element->getType()))
          Operands.push_back(Element);
  }
  return Operands;
}

const Expr *deviceArgument(const CallExpr *Call) {
  unsigned First = (isa<CXXOperatorCallExpr>(Call) && callObject(Call)) ? 1 : 0;
  for (unsigned I = First, N = Call->getNumArgs(); I < N; ++I) {
    const Expr *Arg = Call->getArg(I);
    if (isa<CXXDefaultArgExpr>(Arg))
      continue;
    if (isDeviceSpecType(Arg->getType()))
      return Arg;
  }
  return nullptr;
}

const Expr *deviceSourceTensorArgument(const CallExpr *Call) {
  for (const Expr *Arg : Call->arguments())
    if (!isa<CXXDefaultArgExpr>(Arg) && isTensorType(Arg->getType()))
      return Arg;
  return nullptr;
}

unsigned firstParameterArgument(const CallExpr *Call) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  return isa<CXXOperatorCallExpr>(Call) && Method && Method->isInstance() ? 1
                                                                          : 0;
}

/// The argument bound to the parameter called Name, or null. Looks at every
/// redeclaration, since only some of them may name their parameters.
static const Expr *argumentForParameter(const CallExpr *Call,
                                        llvm::StringRef Name) {
  const FunctionDecl *Callee = calleeOf(Call);
  if (!Callee)
    return nullptr;
  unsigned Offset = firstParameterArgument(Call);
  for (const FunctionDecl *Redecl : Callee->redecls())
    for (unsigned I = 0, N = Redecl->getNumParams(); I < N; ++I)
      if (plainName(Redecl->getParamDecl(I)) == Name)
        return I + Offset < Call->getNumArgs() ? Call->getArg(I + Offset)
                                               : nullptr;
  return nullptr;
}

/// A boolean written as a literal, also when it is converted on its way to
/// the parameter (`pinned_memory(true)` takes a c10::optional<bool>).
/// std::nullopt when the value is computed.
static std::optional<bool> literalBool(const Expr *E) {
  while (E) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(E))
      return B->getValue();
    if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E)) {
      E = Default->getExpr();
      continue;
    }
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
        Construct && Construct->getNumArgs() == 1) {
      E = Construct->getArg(0);
      continue;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

/// `c10::nullopt` / `std::nullopt`: an optional option left unset.
static bool isNullopt(const Expr *E) {
  E = E->IgnoreImplicit()->IgnoreParens();
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
    return isNullopt(Default->getExpr());
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
    return Construct->getNumArgs() == 0 ||
           (Construct->getNumArgs() == 1 && isNullopt(Construct->getArg(0)));
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return plainName(Ref->getDecl()) == "nullopt";
  return false;
}

/// Whether TensorOptions built by E pin host memory (see
/// requestsPinnedMemory). Follows the chain of setters to where it starts.
static std::optional<bool> optionsPinMemory(const Expr *E, unsigned Depth) {
  E = ignoreValuePreserving(E);
  if (!E || Depth > 16)
    return std::nullopt;
  // A Device, DeviceType or ScalarType standing for options never pins.
  if (!isTensorOptionsType(E->getType()))
    return false;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    // TensorOptions(), TensorOptions(kCUDA), TensorOptions(kFloat).
    if (llvm::none_of(Construct->arguments(), [](const Expr *Arg) {
          return isTensorOptionsType(Arg->getType());
        }))
      return false;
    return Construct->getNumArgs() == 1
               ? optionsPinMemory(Construct->getArg(0), Depth + 1)
               : std::nullopt;
  }
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E)) {
    const Expr *Object = Member->getImplicitObjectArgument();
    llvm::StringRef Name = plainName(Member->getDirectCallee());
    // tensor.options() carries dtype, device and layout, never pinning.
    if (Object && isTensorType(Object->getType()))
      return Name == "options" ? std::optional<bool>(false) : std::nullopt;
    if (!Object || !isTensorOptionsType(Object->getType()))
      return std::nullopt;
    // The outermost pinned_memory(...) of a chain is the one that counts.
    if (Name == "pinned_memory" && Member->getNumArgs() == 1) {
      if (isNullopt(Member->getArg(0)))
        return false;
      return literalBool(Member->getArg(0));
    }
    if (isOneOf(Name, {"dtype", "device", "device_index", "layout",
                       "requires_grad", "memory_format"}))
      return optionsPinMemory(Object, Depth + 1);
    return std::nullopt; // merge_in(...) and friends.
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    // torch::dtype(...), torch::device(...): fresh options, not pinned.
    const FunctionDecl *Callee = calleeOf(Call);
    if (Callee && !isa<CXXMethodDecl>(Callee) &&
        isInLibTorchNamespace(Callee) &&
        isOneOf(plainName(Callee), {"dtype", "device", "device_index", "layout",
                                    "requires_grad", "memory_format"}))
      return false;
    return std::nullopt;
  }
  // A const variable keeps the options it was initialised with.
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
        Var && !Var->getType()->isReferenceType() &&
        Var->getType().isConstQualified() && Var->getInit())
      return optionsPinMemory(Var->getInit(), Depth + 1);
  return std::nullopt;
}

const Expr *nonBlockingArgument(const CallExpr *Call) {
  return argumentForParameter(Call, "non_blocking");
}

bool requestsNonBlocking(const CallExpr *Call) {
  const Expr *Flag = nonBlockingArgument(Call);
  return Flag && !isa<CXXDefaultArgExpr>(Flag) && isLiteralTrue(Flag);
}

bool isPinMemoryCall(const CallExpr *Call) {
  const FunctionDecl *Callee = calleeOf(Call);
  if (!Callee || !isInLibTorchNamespace(Callee) ||
      !isTensorType(Callee->getReturnType()))
    return false;
  llvm::StringRef Name = plainName(Callee);
  return Name == "pin_memory" || Name == "_pin_memory";
}

std::optional<bool> requestsPinnedMemory(const CallExpr *Factory) {
  const FunctionDecl *Callee = calleeOf(Factory);
  if (!Callee)
    return std::nullopt;
  bool Pinned = false, Unseen = false;
  auto Note = [&](std::optional<bool> Says) {
    if (!Says)
      Unseen = true;
    else if (*Says)
      Pinned = true;
  };
  // The unpacked overloads take the flag itself: pin_memory=true.
  if (const Expr *Flag = argumentForParameter(Factory, "pin_memory");
      Flag && !isa<CXXDefaultArgExpr>(Flag))
    Note(isNullopt(Flag) ? std::optional<bool>(false) : literalBool(Flag));
  for (const Expr *Arg : Factory->arguments())
    if (!isa<CXXDefaultArgExpr>(Arg) && isTensorOptionsType(Arg->getType()))
      Note(optionsPinMemory(Arg, 0));
  if (Pinned)
    return true;
  if (Unseen)
    return std::nullopt;
  return false;
}

bool allocatesNewTensor(const CallExpr *Call) {
  const FunctionDecl *Callee = calleeOf(Call);
  if (!Callee || !isTensorType(Callee->getReturnType()))
    return false;
  switch (Callee->getOverloadedOperator()) {
  case OO_Plus:
  case OO_Minus:
  case OO_Star:
  case OO_Slash:
  case OO_Percent:
  case OO_Amp:
  case OO_Pipe:
  case OO_Caret:
  case OO_Tilde:
  case OO_EqualEqual:
  case OO_ExclaimEqual:
  case OO_Less:
  case OO_Greater:
  case OO_LessEqual:
  case OO_GreaterEqual:
    return true;
  case OO_None:
    break;
  default:
    return false; // +=, [], ...: the operand itself or a view of it.
  }
  if (!isInLibTorchNamespace(Callee))
    return false;
  return isOneOf(plainName(Callee), {"add", "sub", "mul", "div", "matmul", "mm",
                                     "bmm", "clone", "cat", "stack"});
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
  if (!Object || !isTensorType(Object->getType()) || !isInLibTorchNamespace(Callee))
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

const Expr *viewedStorage(const Expr *E) {
  E = ignoreValuePreserving(E);
  const auto *Call = dyn_cast<CallExpr>(E);
  const FunctionDecl *Callee = calleeOf(Call);
  if (!Callee)
    return E;
  const Expr *Object = nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
      Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2)
    Object = Op->getArg(0);
  else if (isOneOf(plainName(Callee),
                   {"index", "select", "narrow", "slice", "at"}))
    Object = callObject(Call);
  if (!Object || !(isTensorType(Object->getType()) ||
                   isTensorContainerType(Object->getType())))
    return E;
  return viewedStorage(Object);
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
  if (Call->getNumArgs() == 0)
    return false;
  const Expr *Sizes = Call->getArg(0)->IgnoreImplicit();
  while (const auto *Construct = dyn_cast<CXXConstructExpr>(Sizes)) {
    if (Construct->getNumArgs() == 0)
      return true;
    Sizes = Construct->getArg(0)->IgnoreImplicit();
  }
  if (const auto *Std = dyn_cast<CXXStdInitializerListExpr>(Sizes))
    Sizes = Std->getSubExpr()->IgnoreImplicit();
  if (const auto *List = dyn_cast<InitListExpr>(Sizes))
    return List->getNumInits() == 0;
  return false;
}

std::string calleeDisplayName(const CallExpr *Call) {
  const FunctionDecl *FD = calleeOf(Call);
  if (!FD)
    return "call";
  if (FD->getOverloadedOperator() != OO_None) {
    if (FD->getOverloadedOperator() == OO_Call)
      return "operator()";
    return getOperatorSpelling(FD->getOverloadedOperator());
  }
  std::string Name = FD->getNameAsString();
  if (isa<CXXMethodDecl>(FD) && !cast<CXXMethodDecl>(FD)->isStatic())
    return "." + Name + "()";
  // Free functions: as the user qualified them (torch::randn, at::ones).
  const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Callee);
      Ref && Ref->hasQualifier()) {
    std::string Text = writtenText(
        {Ref->getQualifierLoc().getBeginLoc(), Ref->getNameInfo().getEndLoc()},
        FD->getASTContext());
    if (!Text.empty() && Text.find('\n') == std::string::npos)
      return Text;
  }
  return Name;
}

std::string writtenText(SourceRange Range, const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &Lang = Ctx.getLangOpts();
  CharSourceRange InFile =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(Range), SM, Lang);
  if (InFile.isValid())
    return Lexer::getSourceText(InFile, SM, Lang).str();
  // Written inside one macro's definition (or one argument): the text there.
  // Both ends must come from the same expansion, or the text between their
  // spellings would be whatever lies between two definitions.
  if (!Range.getBegin().isMacroID() || !Range.getEnd().isMacroID() ||
      SM.getImmediateExpansionRange(Range.getBegin()).getBegin() !=
          SM.getImmediateExpansionRange(Range.getEnd()).getBegin())
    return "";
  SourceLocation Begin = SM.getSpellingLoc(Range.getBegin());
  SourceLocation End = SM.getSpellingLoc(Range.getEnd());
  if (Begin.isInvalid() || End.isInvalid() ||
      SM.getFileID(Begin) != SM.getFileID(End) ||
      SM.isBeforeInTranslationUnit(End, Begin))
    return "";
  return Lexer::getSourceText(CharSourceRange::getTokenRange(Begin, End), SM,
                              Lang)
      .str();
}

const Expr *ignoreValuePreserving(const Expr *E) {
  while (E) {
    const Expr *Next = E->IgnoreParens();
    if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(Next))
      Next = Cleanups->getSubExpr();
    else if (const auto *Cast = dyn_cast<ImplicitCastExpr>(Next))
      Next = Cast->getSubExpr();
    else if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(Next))
      Next = Temp->getSubExpr();
    else if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(Next))
      Next = Bind->getSubExpr();
    else if (const auto *Constant = dyn_cast<ConstantExpr>(Next))
      Next = Constant->getSubExpr();
    else if (const auto *Functional = dyn_cast<CXXFunctionalCastExpr>(Next);
             Functional &&
             (Functional->getCastKind() == CK_NoOp ||
              Functional->getCastKind() == CK_ConstructorConversion))
      Next = Functional->getSubExpr();
    else if (const auto *Construct = dyn_cast<CXXConstructExpr>(Next);
             Construct && Construct->getNumArgs() >= 1 &&
             Construct->getConstructor()->isCopyOrMoveConstructor())
      Next = Construct->getArg(0);
    else if (const auto *Call = dyn_cast<CallExpr>(Next);
             Call && Call->getNumArgs() == 1 && Call->getDirectCallee() &&
             Call->getDirectCallee()->isInStdNamespace() &&
             (plainName(Call->getDirectCallee()) == "move" ||
              plainName(Call->getDirectCallee()) == "forward"))
      Next = Call->getArg(0);
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

} // namespace torchtidy
