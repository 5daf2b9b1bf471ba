// RUN: %check_lint %s --checks='-*,libtorch-loop-invariant-transfer' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

void train(torch::nn::Linear model, std::vector<torch::Tensor> &inputs,
           torch::Device device) {
  torch::Tensor class_weights = torch::ones({10});
  const at::Tensor &mask = class_weights;
  for (auto &x : inputs) {
    auto w = class_weights.to(device);
    // CHECK: :[[@LINE-1]]:28: warning: '.to()' copies 'class_weights' to a device in every iteration, but 'class_weights' does not change in the loop; move it once before the loop [libtorch-loop-invariant-transfer]
    // CHECK: :[[@LINE-5]]:17: note: 'class_weights' is declared before the loop
    // CHECK: :[[@LINE-4]]:3: note: in this loop
    auto y = model(x.to(device)) * w + mask.cuda();
    // CHECK: :[[@LINE-1]]:45: warning: '.cuda()' copies 'mask' to the device in every iteration
  }
}

// A parameter, a while loop, and the innermost loop of two.
void evaluate(torch::Tensor bias, torch::Device device, int steps) {
  int step = 0;
  while (step++ < steps) {
    torch::Tensor scale = torch::ones({1});
    for (int i = 0; i < 3; ++i) {
      auto b = bias.to(device) + scale.to(device);
      // CHECK: :[[@LINE-1]]:21: warning: '.to()' copies 'bias' to a device in every iteration
      // CHECK: :[[@LINE-2]]:40: warning: '.to()' copies 'scale' to a device in every iteration
    }
  }
}
