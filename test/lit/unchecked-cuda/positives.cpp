// RUN: %check_lint %s --checks='-*,libtorch-unchecked-cuda' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

int main() {
  torch::Device device(torch::kCUDA);
  // CHECK: :[[@LINE-1]]:24: warning: code here places data on CUDA, but this file never checks 'torch::cuda::is_available()'; on a machine without a usable GPU the program fails instead of running on the CPU [libtorch-unchecked-cuda]
  torch::nn::Linear model(4, 2);
  model->to(device);
  auto x = torch::randn({8, 4}).cuda(); // reported once per file
}
