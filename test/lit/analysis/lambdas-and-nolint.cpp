// Lambda bodies are analysed as functions of their own, and calls to them
// through their summaries; NOLINT silences a finding on its line, and
// NOLINTNEXTLINE on the next line, and nothing else.
// RUN: %check_lint %s --checks='%bug_checks' -- %torch_flags \
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
  // NOLINTNEXTLINE(libtorch-mixed-device-operands)
  auto w = x.cuda() * x;
  // Another tensor left behind is another root cause: reported.
  auto v = torch::ones({3});
  auto z = v.cuda() - v;
  // CHECK: :[[@LINE-1]]:21: warning: 'v' is on the CPU {{.*}} but 'v.cuda()' is on 'cuda' (moved with '.cuda()'); '-' needs
}

// Calling a lambda goes through its summary like any function of this file:
// its result, and what it does to what it captured by reference (or to a
// module captured by copy: the handle is shared).
void lambdaCalls(std::vector<torch::data::Example<>> &loader,
                 torch::Device device) {
  torch::nn::Linear model(4, 2);
  auto toDevice = [&](const torch::Tensor &t) { return t.to(device); };
  auto moveModel = [model, &device]() mutable { model->to(device); };
  moveModel();
  for (auto &batch : loader) {
    auto out = model(toDevice(batch.data));
    auto loss = torch::mse_loss(out, batch.target);
    // CHECK: :[[@LINE-1]]:38: warning: 'batch.target' is on the CPU (it comes from the data-loader batch) but 'out' is on 'device'; move it with 'batch.target.to(device)' as well [libtorch-missing-target-migration]
    auto fine = torch::mse_loss(out, toDevice(batch.target));
  }
}

void lambdaMovesBack(torch::Device device) {
  auto x = torch::ones({3}).to(device);
  auto y = torch::ones({3});
  auto bringBack = [&] { x = x.cpu(); };
  bringBack();
  auto fine = x + y;
  auto alsoFine = [&](torch::Tensor t) { return t; }(y) + y;
  auto wrong = [&](torch::Tensor t) { return t; }(y) + x.to(device);
  // CHECK: :[[@LINE-1]]:54: warning: {{.*}} '+' needs all its tensor operands on one device [libtorch-mixed-device-operands]
}
