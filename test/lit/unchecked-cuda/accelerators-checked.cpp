// MPS checked with at::hasMPS(), as LibTorch 1.x spells it (LibTorch 2.x's
// torch::mps::is_available() and torch::xpu::is_available(): see
// libtorch2/accelerators.cpp): nothing to report.
// RUN: %check_lint %s --checks='-*,libtorch-unchecked-cuda' -- %torch_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='warning:'
// CHECK-NOT: warning:
#include <torch/torch.h>

torch::Device pick() {
  return at::hasMPS() ? torch::Device(torch::kMPS) : torch::Device(torch::kCPU);
}

void train(torch::nn::Linear model, torch::Tensor x) {
  torch::Device device = pick();
  model->to(device);
  auto y = x.to(torch::Device("mps"));
}
