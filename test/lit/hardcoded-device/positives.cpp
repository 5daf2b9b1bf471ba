// RUN: %check_lint %s --checks='-*,libtorch-hardcoded-device' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::Tensor x, torch::Tensor y) {
  model->to(torch::kCUDA);
  // CHECK: :[[@LINE-1]]:13: warning: 'torch::kCUDA' hardcodes the device here; define one 'torch::Device' (checking 'torch::cuda::is_available()') and pass it [libtorch-hardcoded-device]
  auto input = x.to(torch::Device("cuda:1"));
  // CHECK: :[[@LINE-1]]:35: warning: '"cuda:1"' hardcodes the device here
  auto target = y.cuda();
  // CHECK: :[[@LINE-1]]:19: warning: '.cuda()' hardcodes the device; use '.to(device)' with the program's one 'torch::Device' [libtorch-hardcoded-device]
  auto noise = torch::randn({2}, torch::TensorOptions().device(c10::DeviceType::CUDA));
  // CHECK: :[[@LINE-1]]:64: warning: 'c10::DeviceType::CUDA' hardcodes the device here
  auto ones = torch::ones({2}, torch::device(torch::kCUDA).dtype(torch::kFloat));
  // CHECK: :[[@LINE-1]]:46: warning: 'torch::kCUDA' hardcodes the device here
}
