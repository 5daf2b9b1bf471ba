//===--- PinnedMemory.cpp - Pinned memory and non_blocking copies ---------===//

#include "Model/PinnedMemory.h"

#include "Model/ModelDetail.h"
#include "Model/SourceText.h"
#include "Model/TorchTypes.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace torchtidy {
using namespace model_detail;

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

} // namespace torchtidy
