// LibTorch 2.x's availability questions for accelerators beyond CUDA:
// torch::mps::is_available() and torch::xpu::is_available() count as the
// check libtorch-unchecked-cuda asks for, each for its own accelerator, and
// libtorch-hardcoded-device names the question of the device it sees.
// REQUIRES: libtorch2
// RUN: %check_lint %s --checks='-*,libtorch-unchecked-cuda' -- %torch_flags \
// RUN:   | FileCheck %s --check-prefix=CHECKED --allow-empty --implicit-check-not='warning:'
// RUN: %check_lint %s --checks='-*,libtorch-unchecked-cuda' -- %torch_flags -DNO_XPU_CHECK \
// RUN:   | FileCheck %s --check-prefix=UNCHECKED --implicit-check-not='warning:'
// RUN: %check_lint %s --checks='-*,libtorch-hardcoded-device' -- %torch_flags \
// RUN:   | FileCheck %s --check-prefix=HARDCODED --implicit-check-not='warning:'
// CHECKED-NOT: warning:
#include <torch/torch.h>

torch::Device pick() {
  if (torch::mps::is_available())
    return torch::Device(torch::kMPS);
#ifndef NO_XPU_CHECK
  if (torch::xpu::is_available())
    return torch::Device(torch::kXPU);
#endif
  return torch::Device(torch::kCPU);
}

void train(torch::nn::Linear model, torch::Tensor x) {
  model->to(pick());
  auto y = x.to(torch::Device("xpu"));
  // UNCHECKED: :[[@LINE-1]]:31: warning: code here places data on XPU, but this file never checks 'torch::xpu::is_available()'{{.*}} [libtorch-unchecked-cuda]
  // HARDCODED: :[[@LINE-2]]:31: warning: '"xpu"' hardcodes the device here; define one 'torch::Device' (checking 'torch::xpu::is_available()') and pass it [libtorch-hardcoded-device]
  auto z = x.to(torch::kMPS);
  // HARDCODED: :[[@LINE-1]]:17: warning: 'torch::kMPS' hardcodes the device here; define one 'torch::Device' (checking 'torch::mps::is_available()') and pass it [libtorch-hardcoded-device]
}
