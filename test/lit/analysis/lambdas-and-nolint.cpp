// Lambda bodies are analysed as functions of their own; NOLINT silences a
// finding on its line and nothing else.
// RUN: %clang_tidy %s --checks='%bug_checks' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

void lambdas(torch::Device device) {
  auto step = [&](const torch::Tensor &x) {
    auto w = torch::ones({3});
    auto d = torch::ones({3}, device);
    return w + d;
    // CHECK: :[[@LINE-1]]:14: warning: 'w' is on the CPU (created by 'torch::ones' without a device) but 'd' is on 'device' (created by 'torch::ones'); '+' needs all its tensor operands on one device [libtorch-mixed-device-operands]
  };
  // Captured by copy: unknown inside the lambda, so not flagged.
  auto h = torch::ones({3});
  auto g = [device, h]() { return h + torch::zeros({3}, device); };
}

void suppressed() {
  auto x = torch::ones({3});
  auto y = x.cuda() + x; // NOLINT(libtorch-mixed-device-operands)
  auto z = x.cuda() - x;
  // CHECK: :[[@LINE-1]]:21: warning: 'x' is on the CPU {{.*}} but 'x.cuda()' is on 'cuda' (moved with '.cuda()'); '-' needs
}
