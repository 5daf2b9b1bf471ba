//===--- Placement.cpp - The device lattice -------------------------------===//

#include "Analysis/Placement.h"
#include "Model/TorchApi.h"

#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>

namespace torchtidy {

std::optional<Device> Device::parse(llvm::StringRef Text) {
  Text = Text.trim();
  auto [Type, IndexText] = Text.split(':');
  if (Type.empty() || !llvm::all_of(Type, [](char C) {
        return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z');
      }))
    return std::nullopt;
  Device D{Type.lower(), -1};
  if (Text.contains(':')) {
    unsigned Index;
    if (IndexText.getAsInteger(10, Index))
      return std::nullopt;
    D.Index = static_cast<int>(Index);
  }
  return D;
}

bool Device::conflictsWith(const Device &Other) const {
  if (Type != Other.Type)
    return true;
  if (isHost())
    return false;
  return Index >= 0 && Other.Index >= 0 && Index != Other.Index;
}

std::string Device::str() const {
  return Index < 0 ? Type : Type + ":" + std::to_string(Index);
}

DeviceSet DeviceSet::of(Device D) {
  DeviceSet S;
  S.Devices.push_back(std::move(D));
  return S;
}

DeviceSet DeviceSet::anyDevice() {
  DeviceSet S;
  S.Any = true;
  return S;
}

DeviceSet DeviceSet::join(const DeviceSet &Other) const {
  DeviceSet Result;
  Result.Any = Any || Other.Any;
  if (Result.Any)
    return Result;
  Result.Devices = Devices;
  for (const Device &D : Other.Devices)
    if (!llvm::is_contained(Result.Devices, D))
      Result.Devices.push_back(D);
  llvm::sort(Result.Devices);
  return Result;
}

std::string DeviceSet::describe() const {
  if (Any)
    return "any device";
  if (Devices.empty())
    return "no device";
  if (isOnlyHost())
    return "the CPU";
  std::string Words;
  for (size_t I = 0; I < Devices.size(); ++I) {
    if (I)
      Words += I + 1 == Devices.size() ? " or " : ", ";
    Words += "'" + Devices[I].str() + "'";
  }
  return Words;
}

Placement Placement::join(const Placement &Other) const {
  if (State == Knowledge::Unset)
    return Other;
  if (Other.State == Knowledge::Unset)
    return *this;
  if (State == Knowledge::Unknown || Other.State == Knowledge::Unknown)
    return unknown();
  Placement Joined = on(Devices.join(Other.Devices),
                        DeviceVar == Other.DeviceVar ? DeviceVar : nullptr);
  if (FromParameter == Other.FromParameter)
    Joined.FromParameter = FromParameter;
  return Joined;
}

bool Placement::mayBeOnHost() const {
  if (!isKnown() || Devices.isAny())
    return true;
  return llvm::any_of(Devices.devices(),
                      [](const Device &D) { return D.isHost(); });
}

bool Placement::mayBeOffHost() const {
  if (!isKnown() || Devices.isAny())
    return true;
  return llvm::any_of(Devices.devices(),
                      [](const Device &D) { return !D.isHost(); });
}

std::string Placement::describe() const {
  if (!isKnown())
    return "an unknown device";
  if (DeviceVar && !Devices.isOnlyHost()) {
    const auto *Owner = llvm::dyn_cast<clang::CXXRecordDecl>(DeviceVar);
    if (!Owner)
      return "'" + DeviceVar->getNameAsString() + "'";
    return isModuleClass(Owner) ? "the module's device"
                                : "the device '" + Owner->getNameAsString() +
                                      "::to' moved it to";
  }
  return Devices.describe();
}

namespace {
/// Pinned holds exactly one device; is Other elsewhere on some path?
bool pinnedConflictsWith(const DeviceSet &Pinned, const DeviceSet &Other) {
  const Device &P = Pinned.devices().front();
  // A caller-chosen device meets a host tensor: it fails on any accelerator.
  if (Other.isAny())
    return P.isHost();
  return llvm::any_of(Other.devices(),
                      [&](const Device &D) { return D.conflictsWith(P); });
}
} // namespace

bool mayConflict(const Placement &A, const Placement &B) {
  if (!A.isKnown() || !B.isKnown())
    return false;
  if (A.DeviceVar && A.DeviceVar == B.DeviceVar)
    return false;
  if (A.Devices.isSingle())
    return pinnedConflictsWith(A.Devices, B.Devices);
  if (B.Devices.isSingle())
    return pinnedConflictsWith(B.Devices, A.Devices);
  return false;
}

GradHistory join(GradHistory A, GradHistory B) {
  if (A == B)
    return A;
  if (A == GradHistory::Carries || B == GradHistory::Carries)
    return GradHistory::Carries;
  return GradHistory::Unknown;
}

HostMemory join(HostMemory A, HostMemory B) {
  return A == B ? A : HostMemory::Unknown;
}

AbstractValue &AbstractValue::addOrigin(Origin O) {
  llvm::erase(Origins, O); // Loops revisit the same step; keep it once.
  Origins.insert(Origins.begin(), std::move(O));
  if (Origins.size() > MaxOrigins)
    Origins.pop_back();
  return *this;
}

AbstractValue &AbstractValue::addOldestOrigin(Origin O) {
  if (Origins.size() < MaxOrigins && !llvm::is_contained(Origins, O))
    Origins.push_back(std::move(O));
  return *this;
}

const Origin *AbstractValue::findOrigin(Origin::Kind K) const {
  for (const Origin &O : Origins)
    if (O.K == K)
      return &O;
  return nullptr;
}

AbstractValue AbstractValue::tupleOf(std::vector<AbstractValue> Elements) {
  AbstractValue Tuple;
  if (!Elements.empty()) {
    const AbstractValue &First = Elements.front();
    bool Agree = llvm::all_of(Elements, [&](const AbstractValue &E) {
      return E.Where == First.Where && E.Grad == First.Grad;
    });
    Tuple.Where = Agree ? First.Where : Placement::unknown();
    Tuple.Grad = Agree ? First.Grad : GradHistory::Unknown;
    if (Agree)
      Tuple.Origins = First.Origins;
  } else {
    Tuple.Where = Placement::unknown();
  }
  Tuple.Elements = std::move(Elements);
  return Tuple;
}

AbstractValue AbstractValue::element(unsigned Index) const {
  if (Index < Elements.size())
    return Elements[Index];
  AbstractValue Whole = *this;
  Whole.Elements.clear();
  Whole.ZeroDim = false;
  Whole.MaybeZeroDim = false;
  Whole.Rank.reset();
  return Whole;
}

AbstractValue AbstractValue::join(const AbstractValue &Other) const {
  // A path that went through a throwing op does not reach the join.
  if (FromFailingOp != Other.FromFailingOp &&
      Where.State != Placement::Knowledge::Unset &&
      Other.Where.State != Placement::Knowledge::Unset)
    return FromFailingOp ? Other : *this;
  AbstractValue Result;
  Result.FromFailingOp = FromFailingOp && Other.FromFailingOp;
  // Tuples join element by element while both sides know their elements.
  if (Where.State == Placement::Knowledge::Unset && Other.Elements.size())
    Result.Elements = Other.Elements;
  else if (Other.Where.State == Placement::Knowledge::Unset && Elements.size())
    Result.Elements = Elements;
  else if (Elements.size() && Elements.size() == Other.Elements.size())
    for (size_t I = 0; I < Elements.size(); ++I)
      Result.Elements.push_back(Elements[I].join(Other.Elements[I]));
  Result.Where = Where.join(Other.Where);
  // An unset side has not happened yet on its path; it says nothing.
  if (Where.State == Placement::Knowledge::Unset) {
    Result.ZeroDim = Other.ZeroDim;
    Result.MaybeZeroDim = Other.MaybeZeroDim;
    Result.Rank = Other.Rank;
    Result.Memory = Other.Memory;
    Result.Grad = Other.Grad;
    Result.HoldsGivenTensors = Other.HoldsGivenTensors;
  } else if (Other.Where.State == Placement::Knowledge::Unset) {
    Result.ZeroDim = ZeroDim;
    Result.MaybeZeroDim = MaybeZeroDim;
    Result.Rank = Rank;
    Result.Memory = Memory;
    Result.Grad = Grad;
    Result.HoldsGivenTensors = HoldsGivenTensors;
  } else {
    Result.HoldsGivenTensors = HoldsGivenTensors && Other.HoldsGivenTensors;
    Result.ZeroDim = ZeroDim && Other.ZeroDim;
    // 0-dim on one path and maybe on the other: maybe.
    Result.MaybeZeroDim = !Result.ZeroDim && (ZeroDim || MaybeZeroDim) &&
                          (Other.ZeroDim || Other.MaybeZeroDim);
    if (Rank == Other.Rank)
      Result.Rank = Rank;
    Result.Memory = torchtidy::join(Memory, Other.Memory);
    Result.Grad = torchtidy::join(Grad, Other.Grad);
  }
  // Lead with the history of the side that may be off the host: that is the
  // side a diagnostic has to explain.
  bool OtherLeads = Where.isDefinitelyHost() && Other.Where.isKnown() &&
                    !Other.Where.isDefinitelyHost();
  const AbstractValue &First = OtherLeads ? Other : *this;
  const AbstractValue &Second = OtherLeads ? *this : Other;
  Result.Origins = First.Origins;
  for (const Origin &O : Second.Origins)
    if (Result.Origins.size() < MaxOrigins &&
        !llvm::is_contained(Result.Origins, O))
      Result.Origins.push_back(O);
  return Result;
}

bool AbstractValue::operator==(const AbstractValue &O) const {
  return Where == O.Where && ZeroDim == O.ZeroDim &&
         MaybeZeroDim == O.MaybeZeroDim && Rank == O.Rank && Grad == O.Grad &&
         Memory == O.Memory && Origins == O.Origins && Elements == O.Elements &&
         FromFailingOp == O.FromFailingOp &&
         HoldsGivenTensors == O.HoldsGivenTensors;
}

} // namespace torchtidy
