// RUN: %check_lint %s --checks='-*,libtorch-hardcoded-device' -- %torch_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='warning:'
// CHECK-NOT: warning:
#include <torch/torch.h>

// The one place the device is chosen: a variable, a function, a member.
torch::Device pickDevice() {
  return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
}
struct Config {
  Config() : device(torch::kCUDA, 0) {}
  torch::Device device;
  torch::DeviceType type = torch::kCUDA;
};

void train(torch::nn::Linear model, torch::Tensor x) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  torch::Device second("cuda:1");
  auto options = torch::TensorOptions().device(torch::kCUDA);
  device = torch::Device(torch::kCUDA);
  model->to(device);
  auto input = x.to(device);
  // Back to the host to log or save: not a hardcoded accelerator.
  auto host = input.to(torch::kCPU).cpu();
  auto dtype = input.to(torch::kHalf);
}

// The official MNIST example: a DeviceType chosen by the built-in '='.
void officialExample() {
  torch::DeviceType device_type;
  if (torch::cuda::is_available())
    device_type = torch::kCUDA;
  else
    device_type = torch::kCPU;
  torch::Device device(device_type);
}

// Static data members: declared in the class without an initializer,
// defined with one outside it; that definition is the program's one device
// (and a declaration without one is no crash).
struct Defaults {
  static torch::TensorOptions options;
  static torch::Device device;
  static torch::TensorOptions plain;
};
torch::TensorOptions Defaults::options =
    torch::TensorOptions().device(torch::kCUDA);
torch::Device Defaults::device = torch::Device(torch::kCUDA);
torch::TensorOptions Defaults::plain = torch::TensorOptions();

// One step removed: an extern declaration, then the definition that
// initialises it.
extern torch::Device sharedDevice;
torch::Device sharedDevice = torch::Device(torch::kCUDA);

// Through a template: a class template's static member, defined outside
// it for every instantiation, and used through a method.
template <typename T> struct Placement {
  static torch::Device device;
  torch::Tensor place(torch::Tensor x) const { return x.to(device); }
};
template <typename T>
torch::Device Placement<T>::device = torch::Device(torch::kCUDA);
torch::Tensor placeFloat(torch::Tensor x) { return Placement<float>{}.place(x); }
