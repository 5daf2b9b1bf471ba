// RUN: %check_lint %s --checks='-*,libtorch-host-sync-in-loop' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>
#include <iostream>

void train(torch::nn::Linear model, std::vector<torch::data::Example<>> &loader,
           torch::Device device) {
  model->to(device);
  double total = 0;
  for (auto &batch : loader) {
    auto output = model(batch.data.to(device));
    auto loss = torch::mse_loss(output, batch.target.to(device));
    total += loss.item<double>();
    // CHECK: :[[@LINE-1]]:19: warning: '.item()' copies 'loss' (on 'device') to the host and waits for the device in every iteration; accumulate on the device and read the value once per logging interval [libtorch-host-sync-in-loop]
    // CHECK: :[[@LINE-5]]:3: note: in this loop
    std::cout << loss << "\n";
    // CHECK: :[[@LINE-1]]:15: warning: '<<' copies 'loss' (on 'device') to the host
    auto predictions = output.argmax(1).cpu();
    // CHECK: :[[@LINE-1]]:41: warning: '.cpu()' copies 'output.argmax(1)' (on 'device') to the host
  }
}

// A tensor created on a spelled device, in a while loop, counted on the
// host.
int poll(int steps) {
  auto flag = torch::zeros({1}, torch::kCUDA);
  int step = 0, raised = 0;
  while (step++ < steps) {
    raised += flag.is_nonzero();
    // CHECK: :[[@LINE-1]]:20: warning: '.is_nonzero()' copies 'flag' (on 'cuda') to the host
  }
  return raised;
}
