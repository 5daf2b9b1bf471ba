//===--- ClassFields.cpp - What a plain class keeps in its fields ---------===//

#include "Analysis/ClassFields.h"
#include "Analysis/DeviceFlow.h"
#include "Analysis/UnitAnalysis.h"
#include "Model/TorchApi.h"

#include "clang/AST/ASTContext.h"

using namespace clang;

namespace torchtidy {

/// Whether every method of the class may name where V is: the host, a
/// concrete device, or the class's own device member. A placement that
/// stands for a parameter or for what a field held on entry means
/// something in one method only.
static bool isNameableInClass(const AbstractValue &V,
                              const CXXRecordDecl *Class) {
  if (!V.Where.isKnown() || V.Where.FromParameter || V.FromFailingOp)
    return false;
  if (!V.Where.DeviceVar)
    return !V.Where.Devices.isAny();
  const auto *DeviceMember = dyn_cast<FieldDecl>(V.Where.DeviceVar);
  return DeviceMember && DeviceMember->getParent() == Class &&
         isDeviceSpecType(DeviceMember->getType());
}

bool isPlainUserClass(const CXXRecordDecl *Class) {
  return Class && !Class->isLambda() && !isModuleClass(Class) &&
         !isDeviceOwningClass(Class) && !isInLibTorchNamespace(Class) &&
         !isInStandardLibrary(Class);
}

std::optional<AbstractValue>
computeClassFieldValue(const FieldDecl *Field) {
  if (!Field || Field->getAccess() != AS_private)
    return std::nullopt;
  TorchValueKind Kind = classifyType(Field->getType());
  if (Kind != TorchValueKind::Tensor && Kind != TorchValueKind::Module)
    return std::nullopt;
  const auto *Class = dyn_cast<CXXRecordDecl>(Field->getParent());
  if (!Class)
    return std::nullopt;
  if (!isPlainUserClass(Class) || !Class->hasDefinition() ||
      Class->hasFriends())
    return std::nullopt;
  // A default member initialiser runs in every constructor that does not
  // say otherwise, an implicit one included; only written constructors are
  // read here.
  if (Field->hasInClassInitializer())
    return std::nullopt;
  ASTContext &Ctx = Field->getASTContext();
  UnitAnalysis &Unit = UnitAnalysis::of(Ctx);
  AbstractValue Joined; // Unset: nothing stored yet.
  for (const CXXMethodDecl *Method : Class->methods()) {
    if (Method->isStatic() || isa<CXXDestructorDecl>(Method) ||
        Method->isImplicit())
      continue;
    // A const method cannot rebind a field (mutable ones aside).
    if (Method->isConst() && !Field->isMutable())
      continue;
    const FunctionDecl *Definition = nullptr;
    if (!Method->hasBody(Definition) || !Definition ||
        Definition->isDependentContext())
      return std::nullopt;
    const FunctionSummary *Summary = Unit.summaryOf(Definition);
    if (!Summary || Summary->GaveUp)
      return std::nullopt;
    for (const auto &[Changed, AtExit] : Summary->Effects) {
      if (Changed != Field)
        continue;
      // Still where it was on entry (`counts_ += batch_counts`, rows
      // written in place): the method does not move it.
      if (AtExit.Where.isKnown() && AtExit.Where.Devices.isAny() &&
          AtExit.Where.DeviceVar == Field)
        continue;
      if (!isNameableInClass(AtExit, Class))
        return std::nullopt;
      Joined = Joined.join(AtExit);
    }
  }
  if (!Joined.Where.isKnown() || !isNameableInClass(Joined, Class))
    return std::nullopt;
  return Joined;
}

} // namespace torchtidy
