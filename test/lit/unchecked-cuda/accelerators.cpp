// Accelerators beyond CUDA: Apple's MPS and Intel's XPU. Each accelerator the
// file places data on needs its own availability check; asking about CUDA
// says nothing about MPS. One finding per accelerator, at its first
// placement, in source order.
// RUN: %check_lint %s --checks='-*,libtorch-unchecked-cuda' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

torch::Device pick_cuda() {
  return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
}

void train(torch::nn::Linear model, torch::Tensor x) {
  model->to(torch::kMPS);
  // CHECK: :[[@LINE-1]]:13: warning: code here places data on MPS, but this file never checks 'torch::mps::is_available()'; on a machine without a usable GPU the program fails instead of running on the CPU [libtorch-unchecked-cuda]
  auto on_mps = x.to(torch::Device("mps"));
  auto on_xpu = x.to(torch::Device("xpu:0"));
  // CHECK: :[[@LINE-1]]:36: warning: code here places data on XPU, but this file never checks 'torch::xpu::is_available()'{{.*}} [libtorch-unchecked-cuda]
  auto on_cuda = x.to(pick_cuda());
  // Not accelerators: nothing to check for.
  auto on_meta = x.to(torch::kMeta);
  auto on_cpu = x.to(torch::kCPU);
}
