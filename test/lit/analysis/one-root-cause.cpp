// One root cause, one finding: a model or tensor left behind is reported at
// its first device-checked use; later uses of it, or of values computed from
// it, are notes of that finding, not findings of their own.
// (Columns of operator and module calls differ between LLVM 19 and 22.)
// RUN: %check_lint %s --checks='%bug_checks' -- %torch_flags | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

void modelLeftBehind(torch::Device device) {
  torch::nn::Linear model(4, 2);
  auto x = torch::randn({8, 4}, device);
  auto y = torch::randn({8, 2}, device);
  auto out = model(x);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: 'model' is on the CPU (it is created there and never moved) but its input 'x' is on 'device'; move the module with 'model->to(device)' before calling it [libtorch-missing-target-migration]
  auto loss = torch::mse_loss(out, y);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: note: 'model', or a value computed from it, also meets another device here; the same fix covers it
  auto again = model(x * 2);
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: note: 'model', or a value computed from it, also meets another device here
}

void weightsLeftBehind(torch::Device device) {
  auto w = torch::ones({4});
  auto a = torch::randn({4}, device);
  auto b = torch::randn({4}, device);
  auto s = a * w;
  // CHECK: :[[@LINE-1]]:14: warning: 'w' is on the CPU (created by 'torch::ones' without a device) but 'a' is on 'device'
  auto t = b + w;
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: note: 'w', or a value computed from it, also meets another device here
  auto u = (w * 2) - a;
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: note: 'w', or a value computed from it, also meets another device here
}

// Two tensors left behind are two root causes: two findings.
void twoLeftBehind(torch::Device device) {
  auto w = torch::ones({4});
  auto v = torch::zeros({4});
  auto a = torch::randn({4}, device);
  auto s = a * w;
  // CHECK: :[[@LINE-1]]:14: warning: 'w' is on the CPU
  auto t = a * v;
  // CHECK: :[[@LINE-1]]:14: warning: 'v' is on the CPU
}

// The first use in the source is the finding, even when the loop's body is
// walked first.
void firstUseInSource(torch::Device device, int steps) {
  auto bias = torch::zeros({4});
  auto x = torch::randn({4}, device);
  auto y = x + bias;
  // CHECK: :[[@LINE-1]]:14: warning: 'bias' is on the CPU
  for (int i = 0; i < steps; ++i)
    x = x * bias;
    // CHECK: :[[@LINE-1]]:{{[0-9]+}}: note: 'bias', or a value computed from it, also meets another device here
}

// Of nested ops, the inner one meets the host tensor first, and the op
// around it is judged as it will run once that is fixed (both on 'device').
// A host tensor updated around a loop from a device one is still the host
// tensor at the loop's head (the op that mixes them throws, so no iteration
// goes on with its result), and the mix is seen in the loop.
void nestedAndLoopCarried(torch::Device device, int steps) {
  auto w = torch::ones({4}, device);
  auto g = torch::zeros({4});
  auto r = w + 2.0 * w * g;
  // CHECK: :[[@LINE-1]]:{{22|24}}: warning: 'g' is on the CPU (created by 'torch::zeros' without a device) but '2.0 * w' is on 'device'
  auto acc = torch::zeros({4});
  for (int i = 0; i < steps; ++i)
    acc = w + 0.5 * acc;
    // CHECK: :[[@LINE-1]]:{{11|13}}: warning: '0.5 * acc' is on the CPU (created by 'torch::zeros' without a device) but 'w' is on 'device'
}
