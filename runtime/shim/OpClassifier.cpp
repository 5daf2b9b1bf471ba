//===- OpClassifier.cpp - Which ops the shim looks at, and how ------------===//

#include "OpClassifier.h"

#include <ATen/core/function_schema.h>

#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace torchtidy::rt {

namespace {
using TraitsMap = std::unordered_map<std::string_view, OpTraits>;

const TraitsMap &traitsMap() {
  static const TraitsMap *Map = [] {
    auto *Result = new TraitsMap;
    auto Set = [&](std::initializer_list<const char *> Names,
                   void (*Apply)(OpTraits &)) {
      for (const char *Name : Names)
        Apply((*Result)[Name]);
    };
    // Copies between devices: exempt from mixed_device, examined as copies.
    // (Tensor::cpu() and Tensor::cuda() are inline calls of aten::to.)
    Set({"aten::to", "aten::_to_copy", "aten::copy_", "aten::copy",
         "aten::_copy_from", "aten::_copy_from_and_resize"},
        [](OpTraits &T) {
          T.MixExempt = true;
          T.Copy = true;
        });
    // Ops that legitimately take operands on several devices: they convert
    // (type_as is a `to`), move parameters (Module::to calls set_data), or
    // only read another operand's shape or type.
    Set({"aten::type_as", "aten::set_data",
         "aten::_has_compatible_shallow_copy_type", "aten::is_set_to",
         "aten::expand_as", "aten::view_as", "aten::reshape_as",
         "aten::resize_as_", "aten::is_same_size", "aten::result_type",
         "aten::broadcast_tensors", "aten::to_dense", "aten::lift",
         "aten::lift_fresh"},
        [](OpTraits &T) { T.MixExempt = true; });
    // Advanced indexing moves CPU index tensors to the indexed tensor's
    // device; its values operand must still be on that device.
    Set({"aten::index", "aten::index_put_", "aten::index_put",
         "aten::_index_put_impl_", "aten::_unsafe_index",
         "aten::_unsafe_index_put"},
        [](OpTraits &T) { T.CpuIndicesExempt = true; });
    // Ops whose result the host must wait for: a scalar, or a shape that
    // depends on the data.
    Set({"aten::item", "aten::_local_scalar_dense", "aten::is_nonzero",
         "aten::nonzero", "aten::equal", "aten::allclose",
         "aten::masked_select", "aten::_unique", "aten::_unique2",
         "aten::unique_dim", "aten::unique_consecutive",
         "aten::unique_dim_consecutive"},
        [](OpTraits &T) { T.Sync = true; });
    Set({"aten::add", "aten::add_", "aten::sub", "aten::sub_"},
        [](OpTraits &T) { T.AddFamily = true; });
    return Result;
  }();
  return *Map;
}

/// Positions of the named arguments of one copy op overload; -1 if absent.
struct CopySlots {
  int Self = -1, Src = -1, Dst = -1, Other = -1, Device = -1, NonBlocking = -1;
};

/// One entry per overload ("aten::to.device"), found once from its schema:
/// operator_schema() copies the whole schema, too much for every copy.
std::optional<CopySlots> copySlots(const at::RecordFunction &Fn) {
  static std::mutex *Lock = new std::mutex;
  static auto *Cache = new std::unordered_map<std::string, CopySlots>;
  auto Name = Fn.operator_name();
  if (!Name)
    return std::nullopt;
  std::string Key = Name->name + "." + Name->overload_name;
  {
    std::lock_guard<std::mutex> Guard(*Lock);
    auto Found = Cache->find(Key);
    if (Found != Cache->end())
      return Found->second;
  }
  auto Schema = Fn.operator_schema();
  if (!Schema)
    return std::nullopt;
  CopySlots Slots;
  const auto &Arguments = Schema->arguments();
  for (size_t I = 0; I < Arguments.size(); ++I) {
    const std::string &Arg = Arguments[I].name();
    int Index = static_cast<int>(I);
    if (Arg == "self")
      Slots.Self = Index;
    else if (Arg == "src")
      Slots.Src = Index;
    else if (Arg == "dst")
      Slots.Dst = Index;
    else if (Arg == "other")
      Slots.Other = Index;
    else if (Arg == "device")
      Slots.Device = Index;
    else if (Arg == "non_blocking")
      Slots.NonBlocking = Index;
  }
  std::lock_guard<std::mutex> Guard(*Lock);
  Cache->emplace(std::move(Key), Slots);
  return Slots;
}

const at::Tensor *tensorAt(c10::ArrayRef<const c10::IValue> Inputs, int Slot) {
  if (Slot < 0 || static_cast<size_t>(Slot) >= Inputs.size() ||
      !Inputs[Slot].isTensor() || !Inputs[Slot].toTensor().defined())
    return nullptr;
  return &Inputs[Slot].toTensor();
}
} // namespace

OpTraits classifyOp(const char *Name) {
  if (!Name)
    return {};
  const TraitsMap &Map = traitsMap();
  auto Found = Map.find(std::string_view(Name));
  return Found == Map.end() ? OpTraits() : Found->second;
}

std::optional<CopyOperands> copyOperands(const at::RecordFunction &Fn) {
  std::optional<CopySlots> Slots = copySlots(Fn);
  if (!Slots)
    return std::nullopt;
  c10::ArrayRef<const c10::IValue> Inputs = Fn.inputs();
  CopyOperands Result;
  // copy_(self, src): data flows from src into self. Everything else
  // (to, _to_copy, _copy_from) copies self somewhere.
  const at::Tensor *Source = tensorAt(Inputs, Slots->Src);
  const at::Tensor *Target = nullptr;
  if (Source) {
    Target = tensorAt(Inputs, Slots->Self);
  } else {
    Source = tensorAt(Inputs, Slots->Self);
    Target = tensorAt(Inputs, Slots->Dst);
    if (!Target)
      Target = tensorAt(Inputs, Slots->Other);
  }
  if (!Source)
    return std::nullopt;
  Result.Source = *Source;
  if (Target) {
    Result.Destination = Target->device();
  } else if (Slots->Device >= 0 &&
             static_cast<size_t>(Slots->Device) < Inputs.size() &&
             Inputs[Slots->Device].isDevice()) {
    Result.Destination = Inputs[Slots->Device].toDevice();
  } else {
    // to(dtype), or a `device` left out: the copy stays where it is.
    Result.Destination = Source->device();
  }
  if (Slots->NonBlocking >= 0 &&
      static_cast<size_t>(Slots->NonBlocking) < Inputs.size() &&
      Inputs[Slots->NonBlocking].isBool())
    Result.NonBlocking = Inputs[Slots->NonBlocking].toBool();
  return Result;
}

} // namespace torchtidy::rt
