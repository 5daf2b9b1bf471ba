// One element of a 1-D host tensor is a 0-dim tensor, which meets tensors
// on any device; a row of a 2-D one is not. The analysis counts dimensions
// where the code spells them (factories' size lists, tensor literals,
// arange) and through the ops that keep or change them; where it cannot, an
// element's rank is unknown, and so is whether it may meet the device: no
// finding. Shaped like public RL and loss code that scales a device tensor
// by `weights[k]` or `gammas[t]`.
// RUN: %check_lint %s --checks='-*,libtorch-mixed-device-operands' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

// The shape: a weight picked from a host tensor literal scales a device
// loss term.
torch::Tensor weighted_terms(torch::Tensor a, torch::Tensor b) {
  auto weights = torch::tensor({0.3, 0.7});
  auto x = a.to(torch::kCUDA), y = b.to(torch::kCUDA);
  return x * weights[0] + y * weights[1];
}

// One step removed: the discounts go through ops before one is picked; a
// row of a 2-D table is still a tensor of its own.
torch::Tensor discounted(torch::Tensor rewards, int64_t t) {
  auto r = rewards.to(torch::kCUDA);
  auto gammas = torch::pow(torch::full({16}, 0.99), torch::arange(16));
  auto table = torch::zeros({16, 4});
  auto one = r * gammas.flip({0})[t];
  return one + table[t];
  // CHECK: :[[@LINE-1]]:14: warning: 'table[t]' is on the CPU (created by 'torch::zeros' without a device) but 'one' is on 'cuda' {{.*}}'+' needs all its tensor operands on one device [libtorch-mixed-device-operands]
}

// Through a helper: the table comes from a function of the file; its
// rank comes with it.
torch::Tensor make_scales() { return torch::linspace(0.1, 1.0, 10); }
torch::Tensor make_grid() { return torch::ones({10, 2}); }
torch::Tensor scaled(torch::Tensor x, int64_t k) {
  auto on_device = x.cuda();
  auto scales = make_scales();
  auto grid = make_grid();
  return on_device * scales[k] + grid.select(0, k).unsqueeze(0);
  // CHECK: :[[@LINE-1]]:32: warning: 'grid.select(0, k).unsqueeze(0)' is on the CPU (returned by 'make_grid()') but 'on_device * scales[k]' is on 'cuda' {{.*}}'+' needs all its tensor operands on one device [libtorch-mixed-device-operands]
}

// Gathering with a tensor of indices keeps a dimension: never a scalar.
torch::Tensor gathered(torch::Tensor x, torch::Tensor picks) {
  auto on_device = x.cuda();
  auto priorities = torch::rand({64});
  return on_device * priorities[picks];
  // CHECK: :[[@LINE-1]]:20: warning: 'priorities[picks]' is on the CPU (created by 'torch::rand' without a device) but 'on_device' is on 'cuda' {{.*}}'*' needs all its tensor operands on one device [libtorch-mixed-device-operands]
}

// Negative: an element of a host tensor whose rank nobody spelled.
torch::Tensor unknown_rank(torch::Tensor x, std::vector<float> &buffer,
                           std::vector<int64_t> shape) {
  auto host = torch::from_blob(buffer.data(), shape);
  return x.cuda() * host[0];
}
