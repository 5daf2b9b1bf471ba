// Accelerators beyond CUDA are devices like CUDA: a tensor on MPS or XPU
// mixed with one on the CPU, or with one on another accelerator, is a device
// mix; two tensors on MPS are not.
// RUN: %check_lint %s --checks='-*,libtorch-mixed-device-operands' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

torch::Tensor mps_and_cpu(torch::Tensor x) {
  auto on_mps = x.to(torch::kMPS);
  auto weights = torch::ones({4});
  return on_mps * weights;
  // CHECK: :[[@LINE-1]]:17: warning: 'weights' is on the CPU {{.*}} but 'on_mps' is on 'mps'{{.*}} [libtorch-mixed-device-operands]
}

torch::Tensor xpu_and_cuda(torch::Tensor x) {
  auto on_xpu = x.to(torch::Device("xpu"));
  auto on_cuda = x.to(torch::kCUDA);
  return on_xpu + on_cuda;
  // CHECK: :[[@LINE-1]]:17: warning: 'on_xpu' is on 'xpu' {{.*}} but 'on_cuda' is on 'cuda' {{.*}} [libtorch-mixed-device-operands]
}

torch::Tensor both_on_mps(torch::Tensor x) {
  auto a = x.to(torch::kMPS);
  auto b = torch::ones({4}, torch::TensorOptions().device(torch::kMPS));
  return a * b;
}
