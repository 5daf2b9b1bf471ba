// A project's own Tensor, Device and Module classes, with the same method
// names as LibTorch's, in its own namespaces: not LibTorch, never reported,
// at any level.
// RUN: %check_lint %s --checks='-*,libtorch-*' -- %torch_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include <torch/torch.h>

namespace mylib {
enum class DeviceType { CPU, CUDA };
constexpr DeviceType kCUDA = DeviceType::CUDA;
struct Device {
  Device(DeviceType) {}
};
struct Tensor {
  Tensor to(Device) const { return *this; }
  Tensor cuda() const { return *this; }
  Tensor cpu() const { return *this; }
  double item() const { return 0; }
  Tensor &operator+=(const Tensor &) { return *this; }
};
Tensor operator+(const Tensor &, const Tensor &) { return {}; }
Tensor ones(int) { return {}; }
namespace nn {
struct Module {
  void to(Device) {}
};
struct Linear : Module {
  Tensor forward(const Tensor &x) { return x; }
};
} // namespace nn
} // namespace mylib

namespace app {
namespace at {
struct Tensor {
  Tensor cuda() const { return *this; }
};
Tensor operator*(const Tensor &, const Tensor &) { return {}; }
} // namespace at
} // namespace app

void train(int steps) {
  mylib::Device device(mylib::kCUDA);
  mylib::nn::Linear model;
  model.to(device);
  mylib::Tensor total = mylib::ones(1);
  for (int i = 0; i < steps; ++i) {
    auto x = mylib::ones(3);
    auto y = model.forward(x) + x.cuda();
    total += y;
    double v = y.item();
    auto moved = mylib::ones(3).to(mylib::Device(mylib::kCUDA));
  }
  app::at::Tensor a;
  auto b = a * a.cuda();
}
