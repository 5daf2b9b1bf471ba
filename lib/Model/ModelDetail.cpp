//===--- ModelDetail.cpp - What the model's facets share ------------------===//

#include "Model/ModelDetail.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/TemplateBase.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace torchtidy {
namespace model_detail {

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

bool isOrDerivesFrom(const CXXRecordDecl *RD, llvm::StringRef QualifiedName,
                     unsigned Depth) {
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

QualType firstTemplateTypeArgument(const CXXRecordDecl *RD) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || Spec->getTemplateArgs().size() == 0)
    return QualType();
  const TemplateArgument &Arg = Spec->getTemplateArgs()[0];
  return Arg.getKind() == TemplateArgument::Type ? Arg.getAsType() : QualType();
}

bool isTensorClass(const CXXRecordDecl *RD) {
  return isRecordNamed(RD, "at::Tensor") || isRecordNamed(RD, "at::TensorBase");
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

bool isLiteralTrue(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
    E = Default->getExpr()->IgnoreParenImpCasts();
  if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(E))
    return B->getValue();
  return false;
}

} // namespace model_detail
} // namespace torchtidy
