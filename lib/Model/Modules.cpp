//===--- Modules.cpp - torch::nn modules and their registration -----------===//

#include "Model/Modules.h"

#include "Model/ModelDetail.h"
#include "Model/SourceText.h"
#include "Model/TensorOps.h"
#include "Model/TorchTypes.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace torchtidy {
using namespace model_detail;

namespace {

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

} // namespace

bool isModuleClass(const CXXRecordDecl *RD) {
  return isOrDerivesFrom(RD, "torch::nn::Module");
}

bool isModuleForwardMethod(const FunctionDecl *F) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(F);
  return Method && Method->getIdentifier() && Method->getName() == "forward" &&
         isModuleClass(Method->getParent());
}

const CXXMethodDecl *userForwardCalled(const CallExpr *Call,
                                      const CXXRecordDecl *ModuleClass) {
  if (const auto *Callee = dyn_cast_or_null<CXXMethodDecl>(calleeOf(Call));
      Callee && isModuleForwardMethod(Callee))
    return isInLibTorchNamespace(Callee) ? nullptr : Callee;
  if (!ModuleClass || isInLibTorchNamespace(ModuleClass))
    return nullptr;
  const CXXRecordDecl *Def = ModuleClass->getDefinition();
  if (!Def)
    return nullptr;
  const CXXMethodDecl *Forward = nullptr;
  for (const CXXMethodDecl *Method : Def->methods())
    if (isModuleForwardMethod(Method)) {
      if (Forward)
        return nullptr;
      Forward = Method;
    }
  return Forward;
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

QualType moduleHandleElementType(QualType T) {
  QualType Element;
  if (const auto *Array =
          dyn_cast<ConstantArrayType>(T.getCanonicalType().getTypePtr()))
    Element = Array->getElementType();
  else if (const CXXRecordDecl *RD = recordOf(T);
           RD && (isRecordNamed(RD, "std::vector") ||
                  isRecordNamed(RD, "std::array")))
    Element = firstTemplateTypeArgument(RD);
  return !Element.isNull() && isModuleHandleType(Element) ? Element
                                                           : QualType();
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

bool isRegisteredLayerTensor(const FieldDecl *Field) {
  const auto *Layer = dyn_cast_or_null<CXXRecordDecl>(Field->getParent());
  return Layer && isTensorType(Field->getType()) && isModuleClass(Layer) &&
         isInLibTorchNamespace(Layer);
}

const Expr *moduleObjectOfMember(const MemberExpr *Member) {
  const Expr *Base = Member->getBase()->IgnoreParenImpCasts();
  // `net->fc1`: operator-> of the holder or shared_ptr.
  if (const auto *Arrow = dyn_cast<CXXOperatorCallExpr>(Base);
      Arrow && Arrow->getOperator() == OO_Arrow && Arrow->getNumArgs() > 0)
    Base = Arrow->getArg(0)->IgnoreParenImpCasts();
  else if (const Expr *Handle = dereferencedModuleHandle(Base))
    Base = Handle;
  if (isa<CXXThisExpr>(Base) || !isModuleType(Base->getType()))
    return nullptr;
  return Base;
}

bool isModuleTensorsAccessor(const CallExpr *Call) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee());
  const Expr *Object = callObject(Call);
  return Method && Object && isModuleType(Object->getType()) &&
         isInLibTorchNamespace(Method) &&
         isOneOf(plainName(Method), {"parameters", "named_parameters",
                                     "buffers", "named_buffers"});
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

namespace {
std::optional<bool> holdsParameters(const CXXRecordDecl *ModuleClass,
                                    unsigned Depth);

/// Yes as soon as one part says yes; else unknown if one part is unknown.
struct AnyOf {
  bool Unknown = false;
  /// Adds a part's answer; true once the whole is known to be yes.
  bool add(std::optional<bool> Part) {
    Unknown |= !Part;
    return Part.value_or(false);
  }
  std::optional<bool> result() const {
    return Unknown ? std::nullopt : std::optional<bool>(false);
  }
};

/// A registration that gives a module state: register_parameter,
/// register_buffer, or register_module of a module that holds parameters.
std::optional<bool> isStatefulRegistration(const CallExpr *Call,
                                           unsigned Depth) {
  if (!isModuleRegistrationCall(Call))
    return false;
  const CXXRecordDecl *Registered = moduleClassOf(Call->getType());
  if (!Registered)
    return true; // register_parameter, register_buffer
  return holdsParameters(Registered, Depth + 1);
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
        Definition && containsCallWhere(Definition->getBody(), isTrainingModeRead))
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

/// A module of the user's holds parameters when its code registers a
/// parameter, a buffer or a submodule that holds parameters, when it has a
/// submodule member that holds parameters, or when it derives from a module
/// that does. A plain tensor member is not a parameter by itself: a box
/// coder's anchor table or a loss's window, kept and moved by the class, is
/// no state of the module's. A constructor or method defined in another
/// translation unit may register anything: unknown, unless what is seen says
/// yes.
std::optional<bool> userModuleHoldsParameters(const CXXRecordDecl *ModuleClass,
                                              unsigned Depth) {
  const CXXRecordDecl *Def = ModuleClass->getDefinition();
  if (!Def || Depth > MaxModuleNesting)
    return std::nullopt; // Declared only, or too deep to tell.
  AnyOf Parts;
  auto Registers = [&](const Stmt *Code) {
    return containsCallWhere(Code, [&](const CallExpr *Call) {
      return Parts.add(isStatefulRegistration(Call, Depth));
    });
  };
  for (const FieldDecl *Field : Def->fields()) {
    if (const CXXRecordDecl *Sub = moduleClassOf(Field->getType());
        Sub && Parts.add(holdsParameters(Sub, Depth + 1)))
      return true;
    if (Registers(Field->getInClassInitializer()))
      return true;
  }
  // Constructors register in their bodies and initialisers, a Cloneable in
  // reset(), which its constructor calls; registering in forward() or any
  // later method would fail on the second call, so only those two kinds,
  // defined elsewhere, leave the answer open.
  for (const CXXMethodDecl *Method : Def->methods()) {
    if (isDefinedElsewhere(Method)) {
      if (isa<CXXConstructorDecl>(Method) || plainName(Method) == "reset")
        Parts.add(std::nullopt);
      continue;
    }
    const FunctionDecl *Definition = writtenDefinition(Method);
    if (!Definition)
      continue;
    if (Registers(Definition->getBody()))
      return true;
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Definition))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->isWritten() && Registers(Init->getInit()))
          return true;
  }
  for (const CXXRecordDecl *Base : userModuleBases(Def))
    if (Parts.add(holdsParameters(Base, Depth + 1)))
      return true;
  return Parts.result();
}

std::optional<bool> holdsParameters(const CXXRecordDecl *ModuleClass,
                                    unsigned Depth) {
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

std::optional<bool> moduleHoldsParameters(const CXXRecordDecl *ModuleClass) {
  return holdsParameters(ModuleClass, 0);
}

bool moduleDependsOnTrainingMode(const CXXRecordDecl *ModuleClass) {
  return dependsOnTrainingMode(ModuleClass, 0);
}

std::optional<bool> trainingModeTestedBy(const Expr *Condition) {
  if (!Condition)
    return std::nullopt;
  Condition = Condition->IgnoreParenImpCasts();
  if (const auto *Not = dyn_cast<UnaryOperator>(Condition);
      Not && Not->getOpcode() == UO_LNot) {
    std::optional<bool> Tested = trainingModeTestedBy(Not->getSubExpr());
    return Tested ? std::optional<bool>(!*Tested) : std::nullopt;
  }
  const auto *Call = dyn_cast<CallExpr>(Condition);
  if (Call && isTrainingModeRead(Call))
    return true;
  return std::nullopt;
}

ModeSwitch modeSwitchOf(const CallExpr *Call) {
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee ||
      !isModuleClass(dyn_cast<CXXRecordDecl>(Callee->getDeclContext())))
    return ModeSwitch::None;
  llvm::StringRef Name = plainName(Callee);
  if (Name == "eval")
    return ModeSwitch::Evaluation;
  if (Name != "train")
    return ModeSwitch::None;
  if (Call->getNumArgs() == 0 || isa<CXXDefaultArgExpr>(Call->getArg(0)))
    return ModeSwitch::Training; // train(), on = true
  const auto *On = dyn_cast<CXXBoolLiteralExpr>(
      Call->getArg(0)->IgnoreParenImpCasts());
  if (!On)
    return ModeSwitch::Unknown;
  return On->getValue() ? ModeSwitch::Training : ModeSwitch::Evaluation;
}

bool mayEnterEvalMode(const CallExpr *Call) {
  ModeSwitch Switch = modeSwitchOf(Call);
  return Switch == ModeSwitch::Evaluation || Switch == ModeSwitch::Unknown;
}

bool moduleReturnsScalar(const CXXRecordDecl *ModuleClass) {
  if (!ModuleClass)
    return false;
  return llvm::StringRef(stableQualifiedName(ModuleClass))
             .starts_with("torch::nn::") &&
         plainName(ModuleClass).ends_with("LossImpl");
}

std::optional<CheckpointCall> checkpointCall(const CallExpr *Call) {
  const FunctionDecl *Callee = calleeOf(Call);
  if (!Callee || isa<CXXMethodDecl>(Callee) || Call->getNumArgs() < 2)
    return std::nullopt;
  std::string Name = stableQualifiedName(Callee);
  if (Name != "torch::save" && Name != "torch::load")
    return std::nullopt;
  CheckpointCall Checkpoint;
  Checkpoint.IsLoad = Name == "torch::load";
  Checkpoint.Value = Call->getArg(0);
  Checkpoint.Path = Call->getArg(1);
  if (Checkpoint.IsLoad && Call->getNumArgs() > 2 &&
      isDeviceSpecType(Call->getArg(2)->getType()))
    Checkpoint.Device = Call->getArg(2);
  return Checkpoint;
}

/// An argument the call leaves to its default.
static bool isLeftOut(const Expr *Arg) { return isa<CXXDefaultArgExpr>(Arg); }

/// `nullopt` (std's or c10's), as an optional argument spells "none".
static bool isNullopt(const Expr *E) {
  const CXXRecordDecl *Class = E->getType()->getAsCXXRecordDecl();
  return Class && Class->getDeclName().isIdentifier() &&
         Class->getName() == "nullopt_t";
}

std::optional<DataParallelCall> dataParallelCall(const CallExpr *Call) {
  const FunctionDecl *Callee = calleeOf(Call);
  if (!Callee || isa<CXXMethodDecl>(Callee) || Call->getNumArgs() < 2 ||
      stableQualifiedName(Callee) != "torch::nn::parallel::data_parallel")
    return std::nullopt;
  DataParallelCall Parallel;
  Parallel.Module = Call->getArg(0);
  Parallel.Input = Call->getArg(1);
  // Under the optional and the vector: `{device}`, `devices`, `nullopt`.
  if (Call->getNumArgs() > 2 && !isLeftOut(Call->getArg(2)))
    if (const Expr *Devices = underListConversions(Call->getArg(2));
        !isNullopt(Devices)) {
      Parallel.DevicesGiven = true;
      if (const auto *List = dyn_cast<InitListExpr>(Devices))
        for (const Expr *Device : List->inits())
          Parallel.DeviceList.push_back(Device);
    }
  if (Call->getNumArgs() > 3 && !isLeftOut(Call->getArg(3)))
    if (const Expr *Output = underListConversions(Call->getArg(3));
        !isNullopt(Output))
      Parallel.OutputDevice = Output;
  return Parallel;
}

} // namespace torchtidy
