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

const CXXRecordDecl *plainUserClassOf(QualType Type) {
  // An object a `std::unique_ptr` owns is that pointer's alone: what is
  // done to it is done through the pointer.
  if (QualType Owned = uniquePtrPointee(Type); !Owned.isNull())
    Type = Owned;
  // A module handle of the user's (TORCH_MODULE's `Net`) is a module.
  if (classifyType(Type) != TorchValueKind::None)
    return nullptr;
  const auto *Class = Type->getAsCXXRecordDecl();
  if (!Class || !Class->hasDefinition() || !isPlainUserClass(Class))
    return nullptr;
  return Class;
}

/// Whether a lambda in Method captures `this`: what it stores in the fields
/// is not in the method's summary.
static bool hasLambdaCapturingThis(const FunctionDecl *Method) {
  bool Found = false;
  forEachStmt(Method->getBody(), [&](const Stmt *S) {
    if (const auto *Lambda = dyn_cast<LambdaExpr>(S))
      for (const LambdaCapture &Capture : Lambda->captures())
        Found |= Capture.capturesThis();
  });
  return Found;
}

/// The join, over every constructor and every method of Class that may
/// change the place (const ones only where MutableInConst), of what each
/// leaves there: the values LeftBy finds in its summary. A value that still
/// stands for what the place held on entry (Placeholder) is no change. None
/// where a method cannot be seen or leaves what not every method can name.
static std::optional<AbstractValue> joinOverClassCode(
    const CXXRecordDecl *Class, bool MutableInConst,
    const ValueDecl *Placeholder,
    llvm::function_ref<void(const FunctionSummary &,
                            llvm::SmallVectorImpl<const AbstractValue *> &)>
        LeftBy) {
  if (!isPlainUserClass(Class) || !Class->hasDefinition() ||
      Class->hasFriends())
    return std::nullopt;
  UnitAnalysis &Unit = UnitAnalysis::of(Class->getASTContext());
  AbstractValue Joined; // Unset: nothing stored yet.
  for (const CXXMethodDecl *Method : Class->methods()) {
    if (Method->isStatic() || isa<CXXDestructorDecl>(Method) ||
        Method->isImplicit())
      continue;
    // A const method cannot rebind a field (mutable ones aside).
    if (Method->isConst() && !MutableInConst)
      continue;
    const FunctionDecl *Definition = nullptr;
    if (!Method->hasBody(Definition) || !Definition ||
        Definition->isDependentContext() || hasLambdaCapturingThis(Definition))
      return std::nullopt;
    const FunctionSummary *Summary = Unit.summaryOf(Definition);
    if (!Summary || Summary->GaveUp)
      return std::nullopt;
    llvm::SmallVector<const AbstractValue *, 2> Left;
    LeftBy(*Summary, Left);
    for (const AbstractValue *AtExit : Left) {
      // Still where it was on entry (`counts_ += batch_counts`, rows
      // written in place): the method does not move it.
      if (AtExit->Where.isKnown() && AtExit->Where.Devices.isAny() &&
          AtExit->Where.DeviceVar == Placeholder)
        continue;
      if (!isNameableInClass(*AtExit, Class))
        return std::nullopt;
      Joined = Joined.join(*AtExit);
    }
  }
  if (!Joined.Where.isKnown() || !isNameableInClass(Joined, Class))
    return std::nullopt;
  return Joined;
}

std::optional<AbstractValue> computeClassFieldValue(const FieldDecl *Field) {
  if (!Field || Field->getAccess() != AS_private)
    return std::nullopt;
  TorchValueKind Kind = classifyType(Field->getType());
  if (Kind != TorchValueKind::Tensor && Kind != TorchValueKind::Module)
    return std::nullopt;
  // A default member initialiser runs in every constructor that does not
  // say otherwise, an implicit one included; only written constructors are
  // read here.
  if (Field->hasInClassInitializer())
    return std::nullopt;
  return joinOverClassCode(
      dyn_cast<CXXRecordDecl>(Field->getParent()), Field->isMutable(), Field,
      [&](const FunctionSummary &Summary,
          llvm::SmallVectorImpl<const AbstractValue *> &Left) {
        for (const auto &[Changed, AtExit] : Summary.Effects)
          if (Changed == Field)
            Left.push_back(&AtExit);
        for (const FunctionSummary::Append &Append : Summary.Appends)
          if (!Append.Owner && Append.Field == Field)
            Left.push_back(&Append.Added);
      });
}

std::optional<AbstractValue>
computeMemberObjectFieldValue(const FieldDecl *Object, const FieldDecl *Field) {
  if (!Object || !Field || Object->getAccess() != AS_private ||
      !plainUserClassOf(Object->getType()))
    return std::nullopt;
  TorchValueKind Kind = classifyType(Field->getType());
  if (Kind != TorchValueKind::Tensor && Kind != TorchValueKind::TensorList)
    return std::nullopt;
  // An implicit default constructor builds the object without any code
  // here to read: every constructor must be written.
  const auto *Class = dyn_cast<CXXRecordDecl>(Object->getParent());
  if (!Class || !Class->hasDefinition() ||
      Class->needsImplicitDefaultConstructor() ||
      llvm::any_of(Class->ctors(), [](const CXXConstructorDecl *Constructor) {
        return Constructor->isDefaultConstructor() &&
               !Constructor->isUserProvided();
      }))
    return std::nullopt;
  return joinOverClassCode(
      Class, Object->isMutable() || Field->isMutable(), Field,
      [&](const FunctionSummary &Summary,
          llvm::SmallVectorImpl<const AbstractValue *> &Left) {
        for (const FunctionSummary::MemberObjectEffect &Effect :
             Summary.MemberObjectEffects)
          if (Effect.Object == Object && Effect.Field == Field)
            Left.push_back(&Effect.AtExit);
        for (const FunctionSummary::Append &Append : Summary.Appends)
          if (Append.Owner == Object && Append.Field == Field)
            Left.push_back(&Append.Added);
      });
}

} // namespace torchtidy
