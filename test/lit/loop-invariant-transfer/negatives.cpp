// RUN: %check_lint %s --checks='-*,libtorch-loop-invariant-transfer' -- %torch_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='warning:'
// CHECK-NOT: warning:
#include <torch/torch.h>

void ok(std::vector<torch::data::Example<>> &loader, torch::Device device) {
  torch::Tensor weights = torch::ones({10}).to(device); // moved once
  torch::Tensor running = torch::zeros({10});
  torch::Tensor state = torch::zeros({4});
  for (auto &batch : loader) {
    auto data = batch.data.to(device);     // changes every iteration
    auto host = weights.to(torch::kCPU);   // back to the host: not a transfer
    auto half = running.to(torch::kHalf);  // dtype only
    running.add_(1);                       // changed in place ...
    auto r = running.to(device);           // ... so each copy differs
    state = state.to(device) * 2;          // reassigned in the loop
    for (auto t = state.to(device); t.numel() > 0;) // loop header: once
      break;
  }
}

void changedThroughReference(torch::Tensor &x) { x.mul_(2); }

void more(torch::Tensor input, torch::Device device) {
  for (int i = 0; i < 3; ++i) {
    changedThroughReference(input);
    auto y = input.to(device);
  }
  for (int i = 0; i < 3; ++i) {
    torch::Tensor fresh = torch::rand({2}); // a new draw in each iteration
    auto y = fresh.to(device);
    auto z = torch::ones({i + 1}).to(device); // sized by the counter
  }
}
