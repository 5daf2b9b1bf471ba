//===--- ModelDetail.h - What the model's facets share ----------*- C++ -*-===//
//
// Private to lib/Model: the name, record and call helpers that several facets
// of the LibTorch model use, declared once here and defined in
// ModelDetail.cpp. Not part of the model's interface: the analysis and the
// checks include Model/TorchApi.h and never this header.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_MODEL_MODELDETAIL_H
#define TORCHTIDY_MODEL_MODELDETAIL_H

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/StringRef.h"
#include <initializer_list>
#include <string>

namespace torchtidy {

namespace model_detail {

/// "at::Tensor" for at::Tensor, ignoring inline and anonymous namespaces
/// (libstdc++'s std::__cxx11, libc++'s std::__1).
std::string stableQualifiedName(const clang::NamedDecl *D);

/// The class behind a type (through references and sugar), or null.
const clang::CXXRecordDecl *recordOf(clang::QualType T);

bool isRecordNamed(const clang::CXXRecordDecl *RD,
                   llvm::StringRef QualifiedName);

/// Whether RD is QualifiedName or derives from it (through any base path).
bool isOrDerivesFrom(const clang::CXXRecordDecl *RD,
                     llvm::StringRef QualifiedName, unsigned Depth = 0);

/// The first template argument of a specialization, as a type.
clang::QualType firstTemplateTypeArgument(const clang::CXXRecordDecl *RD);

/// at::Tensor or at::TensorBase.
bool isTensorClass(const clang::CXXRecordDecl *RD);

const clang::FunctionDecl *calleeOf(const clang::CallExpr *Call);

/// The declaration's identifier: "" for none, or for a name that is not an
/// identifier (an operator, a constructor).
llvm::StringRef plainName(const clang::NamedDecl *D);

bool isOneOf(llvm::StringRef Name,
             std::initializer_list<llvm::StringLiteral> Names);

/// `true`, written or as a default argument (`torch::requires_grad()`).
bool isLiteralTrue(const clang::Expr *E);

} // namespace model_detail

} // namespace torchtidy

#endif // TORCHTIDY_MODEL_MODELDETAIL_H
