//===- Operand.h - What an event records of its tensors ---------*- C++ -*-===//
//
// An event keeps the device, dtype and shape of the tensors its site saw the
// first time: plain values, so that the tensors themselves are not kept alive.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_RUNTIME_SHIM_OPERAND_H
#define TORCHTIDY_RUNTIME_SHIM_OPERAND_H

#include <ATen/core/ivalue.h>

#include <cstdint>
#include <string>
#include <vector>

namespace torchtidy::rt {

struct Operand {
  std::string Device; // "cpu", "cuda:0", "meta"
  std::string DType;  // "Float", "Long"
  std::vector<int64_t> Shape;
};

/// At most this many operands are kept per event: an op on a long TensorList
/// (torch::cat of a thousand tensors) must not make the report huge.
constexpr size_t kMaxOperands = 8;

Operand describeTensor(const at::Tensor &Tensor);

/// Calls \p Visit on each defined tensor among \p Inputs, those inside tensor
/// lists and lists of optional tensors included; \p Visit gets the index of
/// the input the tensor belongs to.
template <typename Fn>
void forEachTensor(c10::ArrayRef<const c10::IValue> Inputs, Fn &&Visit) {
  for (size_t Index = 0; Index < Inputs.size(); ++Index) {
    const c10::IValue &Input = Inputs[Index];
    if (Input.isTensor()) {
      const at::Tensor &Tensor = Input.toTensor();
      if (Tensor.defined())
        Visit(Index, Tensor);
    } else if (Input.isList()) {
      for (const c10::IValue &Element : Input.toListRef())
        if (Element.isTensor() && Element.toTensor().defined())
          Visit(Index, Element.toTensor());
    }
  }
}

/// Describes the defined tensors among \p Inputs, at most kMaxOperands.
std::vector<Operand> describeTensors(c10::ArrayRef<const c10::IValue> Inputs);

} // namespace torchtidy::rt

#endif
