//===--- DeviceOwners.cpp - Classes that move their own tensors -----------===//

#include "Analysis/DeviceOwners.h"
#include "Analysis/FunctionFacts.h"
#include "Model/TorchApi.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace torchtidy {
namespace {

/// A method called `to` that takes a device: the class's own migration.
bool isDeviceMigrationMethod(const CXXMethodDecl *Method) {
  if (Method->isStatic() || !Method->getIdentifier() ||
      Method->getName() != "to")
    return false;
  return llvm::any_of(Method->parameters(), [](const ParmVarDecl *Parm) {
    return isDeviceSpecType(Parm->getType());
  });
}

/// Whether Value is a tensor moved to one of Method's device parameters:
/// `observations.to(device)`, `x.to(device, /*non_blocking=*/true)`.
bool isMovedToParameterDevice(const Expr *Value, const CXXMethodDecl *Method) {
  const auto *Call = dyn_cast<CallExpr>(ignoreValuePreserving(Value));
  if (!Call || classifyCall(Call) != TorchCallKind::Migration)
    return false;
  const Expr *Device = deviceArgument(Call);
  // `device` as written: the argument may be converted on its way in
  // (Tensor::to takes TensorOptions, built from the Device).
  const auto *Ref =
      Device ? dyn_cast<DeclRefExpr>(Device->IgnoreUnlessSpelledInSource())
             : nullptr;
  const auto *Parm = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  return Parm && Parm->getDeclContext() == Method;
}

} // namespace

std::optional<MovedFields> collectMovedFields(const CXXRecordDecl *Class) {
  MovedFields Moved;
  for (const CXXMethodDecl *Method : Class->methods()) {
    if (!isDeviceMigrationMethod(Method))
      continue;
    const FunctionDecl *Definition = nullptr;
    if (!Method->hasBody(Definition))
      return std::nullopt;
    const auto *Defined = cast<CXXMethodDecl>(Definition);
    forEachStmt(Definition->getBody(), [&](const Stmt *S) {
      const Expr *Target = nullptr, *Value = nullptr;
      if (const auto *Assign = dyn_cast<BinaryOperator>(S);
          Assign && Assign->getOpcode() == BO_Assign) {
        Target = Assign->getLHS();
        Value = Assign->getRHS();
      } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S);
                 Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
        Target = Op->getArg(0);
        Value = Op->getArg(1);
      }
      if (!Target)
        return;
      // `F = ...` or `this->F = ...`: a field of the object itself.
      std::optional<StorageKey> Key = storageKeyOf(Target);
      const FieldDecl *Field = Key && !Key->first ? Key->second : nullptr;
      if (Field && isTensorType(Field->getType()) &&
          isMovedToParameterDevice(Value, Defined))
        Moved.insert(Field);
    });
  }
  return Moved;
}

} // namespace torchtidy
