// RUN: cp %s %t.cpp
// RUN: %clang_tidy %t.cpp --fix --checks='-*,libtorch-missing-target-migration' -- %torch_flags > %t.out
// RUN: grep -v 'FIXED:' %t.cpp | FileCheck %s --check-prefix=FIXED
// The fixed file compiles and is clean.
// RUN: %check_lint %t.cpp --checks='%bug_checks' -- %torch_flags \
// RUN:   | FileCheck %s --allow-empty --check-prefix=CLEAN --implicit-check-not='warning:'
// CLEAN-NOT: warning:
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

template <typename Loader>
void train(Loader &loader, std::shared_ptr<Net> model) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  model->to(device);
  for (auto &batch : loader) {
    auto data = batch.data.to(device, /*non_blocking=*/true);
    auto loss = torch::nll_loss(model->forward(data), batch.target);
    // FIXED: auto loss = torch::nll_loss(model->forward(data), batch.target.to(device, /*non_blocking=*/true));
    auto extra = model->forward(torch::rand({1, 4}) * 2);
    // FIXED: auto extra = model->forward((torch::rand({1, 4}) * 2).to(device));
  }
}
template void train(std::vector<torch::data::Example<>> &, std::shared_ptr<Net>);

void dropped(torch::Device device) {
  auto x = torch::randn({4});
  x.to(device);
  // FIXED: x = x.to(device);
  auto y = x.to(device) + torch::ones({4}, device);
}

// The raw batch tensor went through a model of unknown device first: the
// fix goes on the batch read, not on the model's output.
void throughModel(std::shared_ptr<Net> model,
                  std::vector<torch::data::Example<>> &loader,
                  torch::Device device) {
  for (auto &batch : loader) {
    auto data = batch.data;
    // FIXED: auto data = batch.data.to(device);
    auto out = model->forward(data);
    torch::nll_loss(out, batch.target.to(device)).backward();
  }
}

// Inside a helper whose caller moved the prediction: the fix is spelled in
// the helper's own names, after the parameter the prediction came in by.
static torch::Tensor nllOf(torch::Tensor pred) {
  auto target = torch::tensor({1, 0, 1}, torch::kLong);
  return torch::nll_loss(pred, target);
  // FIXED: return torch::nll_loss(pred, target.to(pred.device()));
}
void callsHelper(torch::Device device) {
  auto scores = torch::randn({3, 2}).to(device);
  auto loss = nllOf(scores);
}
