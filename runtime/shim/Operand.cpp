//===- Operand.cpp - What an event records of its tensors -----------------===//

#include "Operand.h"

namespace torchtidy::rt {

Operand describeTensor(const at::Tensor &Tensor) {
  Operand Result;
  Result.Device = Tensor.device().str();
  Result.DType = c10::toString(Tensor.scalar_type());
  // A nested tensor has no single shape and throws here: the operand is then
  // recorded without one rather than not at all.
  try {
    at::IntArrayRef Sizes = Tensor.sizes();
    Result.Shape.assign(Sizes.begin(), Sizes.end());
  } catch (...) {
  }
  return Result;
}

std::vector<Operand> describeTensors(c10::ArrayRef<const c10::IValue> Inputs) {
  std::vector<Operand> Result;
  forEachTensor(Inputs, [&](size_t, const at::Tensor &Tensor) {
    if (Result.size() < kMaxOperands)
      Result.push_back(describeTensor(Tensor));
  });
  return Result;
}

} // namespace torchtidy::rt
