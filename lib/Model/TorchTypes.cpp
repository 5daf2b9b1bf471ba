//===--- TorchTypes.cpp - Which LibTorch types a value has ----------------===//

#include "Model/TorchTypes.h"

#include "Model/DataLoading.h"
#include "Model/ModelDetail.h"
#include "Model/Modules.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/TemplateBase.h"
#include "llvm/ADT/STLExtras.h"

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

bool isTensorRecordType(QualType T) {
  const CXXRecordDecl *RD = recordOf(T);
  if (!RD || !RD->hasDefinition() || RD->isLambda() || isModuleClass(RD) ||
      isInLibTorchNamespace(RD) || isInStandardLibrary(RD) ||
      classifyType(T) != TorchValueKind::None)
    return false;
  return llvm::any_of(RD->fields(), [](const FieldDecl *Field) {
    return isTensorType(Field->getType());
  });
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
