//===--- TorchTypes.cpp - Which LibTorch types a value has ----------------===//

#include "Model/TorchTypes.h"

#include "Model/DataLoading.h"
#include "Model/ModelDetail.h"
#include "Model/Modules.h"
#include "Model/SourceText.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/TemplateBase.h"
#include "llvm/ADT/STLExtras.h"

#include <functional>

using namespace clang;

namespace torchtidy {
using namespace model_detail;

bool isTensorType(QualType T) { return isTensorClass(recordOf(T)); }

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

bool isModuleOptionsType(QualType T) {
  const CXXRecordDecl *RD = recordOf(T);
  if (!RD || !RD->getIdentifier())
    return false;
  return llvm::StringRef(stableQualifiedName(RD)).starts_with("torch::nn::") &&
         RD->getName().ends_with("Options");
}

bool moduleOptionsMayHoldTensors(QualType T) {
  const CXXRecordDecl *RD = recordOf(T);
  if (!RD || !isModuleOptionsType(T) || !RD->hasDefinition())
    return false;
  // A setter that takes a tensor (`weight(const Tensor &)`) is what makes
  // options hold one; LinearOptions and the like have none.
  return llvm::any_of(RD->methods(), [](const CXXMethodDecl *Method) {
    return llvm::any_of(Method->parameters(), [](const ParmVarDecl *Parm) {
      return isTensorType(Parm->getType());
    });
  });
}

bool isTensorContainerType(QualType T) {
  const CXXRecordDecl *RD = recordOf(T);
  if (!RD)
    return false;
  // torch::OrderedDict<std::string, Tensor>: what named_parameters() gives.
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
      Spec && isRecordNamed(RD, "torch::OrderedDict") &&
      Spec->getTemplateArgs().size() == 2) {
    const TemplateArgument &Value = Spec->getTemplateArgs()[1];
    return Value.getKind() == TemplateArgument::Type &&
           isTensorType(Value.getAsType());
  }
  if (!isRecordNamed(RD, "std::vector") && !isRecordNamed(RD, "std::deque") &&
      !isRecordNamed(RD, "std::list"))
    return false;
  // A replay buffer's `std::deque<std::tuple<Tensor, Tensor, ...>>`, or
  // `std::vector<Transition>`, holds tensors as much as a
  // `std::vector<Tensor>` does.
  QualType Element = firstTemplateTypeArgument(RD);
  return isTensorType(Element) || isTensorTupleType(Element) ||
         isTensorRecordType(Element);
}

QualType uniquePtrPointee(QualType T) {
  const auto *Spec =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(recordOf(T));
  if (!Spec || !isRecordNamed(Spec, "std::unique_ptr") ||
      Spec->getTemplateArgs().size() == 0 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return QualType();
  return Spec->getTemplateArgs()[0].getAsType();
}

const Expr *uniquePtrReached(const Expr *E) {
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Callee || !(Callee->getOverloadedOperator() == OO_Star ||
                   plainName(Callee) == "get"))
    return nullptr;
  const Expr *Pointer = callObject(Call);
  if (!Pointer || uniquePtrPointee(Pointer->getType()).isNull())
    return nullptr;
  return Pointer->IgnoreParenImpCasts();
}

/// The `new T(...)` in the body of a `std::make_unique<T>` instantiation.
static const CXXNewExpr *newExpressionIn(const FunctionDecl *MakeUnique) {
  const FunctionDecl *Definition = nullptr;
  if (!MakeUnique->hasBody(Definition) || !Definition)
    return nullptr;
  const CXXNewExpr *Found = nullptr;
  std::function<void(const Stmt *)> Visit = [&](const Stmt *S) {
    if (!S || Found)
      return;
    if ((Found = dyn_cast<CXXNewExpr>(S)))
      return;
    for (const Stmt *Child : S->children())
      Visit(Child);
  };
  Visit(Definition->getBody());
  return Found;
}

std::optional<ObjectConstruction> objectConstructionOf(const Expr *E) {
  if (!E)
    return std::nullopt;
  E = E->IgnoreParens()->IgnoreImplicit();
  if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
    E = Cast->getSubExpr()->IgnoreImplicit();
  if (const auto *New = dyn_cast<CXXNewExpr>(E)) {
    const CXXConstructExpr *Construct = New->getConstructExpr();
    if (!Construct)
      return std::nullopt;
    E = Construct;
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    const CXXConstructorDecl *Constructor = Construct->getConstructor();
    if (!Constructor)
      return std::nullopt;
    // `std::unique_ptr<T>(new T(...))`: the object the pointer takes.
    if (!uniquePtrPointee(Construct->getType()).isNull()) {
      if (Construct->getNumArgs() == 0)
        return std::nullopt;
      return objectConstructionOf(Construct->getArg(0));
    }
    if (Constructor->isCopyOrMoveConstructor())
      return std::nullopt;
    ObjectConstruction Built{Constructor, {}, Construct->getBeginLoc()};
    for (const Expr *Arg : Construct->arguments())
      Built.Args.push_back(Arg);
    return Built;
  }
  // `std::make_unique<T>(args...)`: T's constructor, given the call's
  // arguments, which make_unique forwards in order.
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !isInStandardLibrary(Callee) ||
        plainName(Callee) != "make_unique")
      return std::nullopt;
    const CXXNewExpr *New = newExpressionIn(Callee);
    const CXXConstructExpr *Construct = New ? New->getConstructExpr() : nullptr;
    if (!Construct || !Construct->getConstructor() ||
        Construct->getNumArgs() < Call->getNumArgs())
      return std::nullopt;
    // The call's arguments, then the defaults of the parameters it leaves
    // out.
    ObjectConstruction Built{
        Construct->getConstructor(), {}, Call->getBeginLoc()};
    for (unsigned I = 0; I < Construct->getNumArgs(); ++I) {
      const Expr *Arg = Construct->getArg(I);
      if (I < Call->getNumArgs())
        Built.Args.push_back(Call->getArg(I));
      else if (isa<CXXDefaultArgExpr>(Arg))
        Built.Args.push_back(Arg);
      else
        return std::nullopt;
    }
    return Built;
  }
  return std::nullopt;
}

std::optional<UniquePtrReset> uniquePtrResetOf(const CallExpr *Call) {
  const auto *Reset = dyn_cast<CXXMemberCallExpr>(Call);
  if (!Reset || Reset->getNumArgs() != 1 ||
      plainName(Reset->getMethodDecl()) != "reset")
    return std::nullopt;
  const Expr *Pointer = callObject(Call);
  if (!Pointer || uniquePtrPointee(Pointer->getType()).isNull())
    return std::nullopt;
  std::optional<ObjectConstruction> Built =
      objectConstructionOf(Reset->getArg(0));
  if (!Built)
    return std::nullopt;
  return UniquePtrReset{Pointer, std::move(*Built)};
}

bool isTensorRecordType(QualType T) {
  // Asked of every expression the analysis evaluates: the cheap tests first.
  const CXXRecordDecl *RD = recordOf(T);
  if (!RD || !RD->hasDefinition() || RD->isLambda() ||
      isInLibTorchNamespace(RD) || isInStandardLibrary(RD) ||
      llvm::none_of(RD->fields(), [](const FieldDecl *Field) {
        return isTensorType(Field->getType());
      }))
    return false;
  return !isModuleClass(RD) && classifyType(T) == TorchValueKind::None;
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

bool isLibTorchHeaderName(llvm::StringRef IncludeName) {
  return llvm::any_of(
      std::initializer_list<llvm::StringRef>{"torch/", "ATen/", "c10/",
                                             "caffe2/"},
      [&](llvm::StringRef Root) { return IncludeName.starts_with(Root); });
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
  if (isModuleOptionsType(T))
    return TorchValueKind::ModuleOptions;
  return TorchValueKind::None;
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

/// The names of LibTorch's top-level namespaces.
static bool isLibTorchNamespaceName(llvm::StringRef Name) {
  return Name == "at" || Name == "c10" || Name == "torch" || Name == "caffe2";
}

bool isInLibTorchNamespace(const Decl *D) {
  return isLibTorchNamespaceName(outermostNamespace(D));
}

bool isLibraryNamespace(const NamespaceDecl *Namespace) {
  if (!Namespace->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return false;
  llvm::StringRef Name = plainName(Namespace);
  return isLibTorchNamespaceName(Name) || Name == "std";
}

bool isInStandardLibrary(const Decl *D) {
  return outermostNamespace(D) == "std";
}

} // namespace torchtidy
