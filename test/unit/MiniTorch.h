//===--- MiniTorch.h - A miniature LibTorch for unit tests -------*- C++
//-*-===//
//
// LibTorch's namespaces and names, a few declarations: the unit tests parse
// functions written against it in milliseconds. The lit suites test the same
// analysis on the real headers.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_TEST_UNIT_MINITORCH_H
#define TORCHTIDY_TEST_UNIT_MINITORCH_H

namespace torchtidy_test {

inline constexpr const char *MiniTorch = R"cpp(
namespace c10 {
enum class DeviceType : signed char { CPU = 0, CUDA = 1, Meta = 9 };
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
struct Device {
  Device(DeviceType t, signed char index = -1) {}
  Device(const char *spec) {}
};
struct TensorOptions {
  TensorOptions() {}
  TensorOptions(Device d) {}
  TensorOptions(DeviceType t) {}
};
} // namespace c10
namespace at {
struct Tensor {
  Tensor to(c10::Device d) const;
  Tensor cuda() const;
  Tensor cpu() const;
  Tensor detach() const;
  Tensor sum() const;
  Tensor sum(long dim) const;
  Tensor permute(long first, long second) const;
  Tensor &add_(const Tensor &other);
  double item() const;
};
Tensor operator+(const Tensor &, const Tensor &);
Tensor operator*(const Tensor &, const Tensor &);
Tensor ones(int n, c10::TensorOptions options = {});
} // namespace at
namespace torch {
using at::Tensor;
using at::ones;
using c10::Device;
using c10::kCPU;
using c10::kCUDA;
} // namespace torch
)cpp";

} // namespace torchtidy_test

#endif // TORCHTIDY_TEST_UNIT_MINITORCH_H
