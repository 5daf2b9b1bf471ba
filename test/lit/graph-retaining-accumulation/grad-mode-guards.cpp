// RUN: %check_lint %s --checks='-*,libtorch-graph-retaining-accumulation' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

// The grad-mode settings besides NoGradGuard: AutoGradMode(false) turns
// recording off for its scope, AutoGradMode(true) and InferenceMode(false)
// turn it back on inside a scope where it was off, a guard whose setting is
// a run-time flag may turn it off, and GradMode::set_enabled() sets it
// until it is set again.

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

void autoGradModeOff(Net &model, std::vector<torch::Tensor> &inputs) {
  torch::AutoGradMode enable_grad(false);
  torch::Tensor total = torch::zeros({});
  std::vector<torch::Tensor> outputs;
  for (auto &x : inputs) {
    total += model.forward(x).sum();
    outputs.push_back(model.forward(x));
  }
  std::cout << total << outputs.size() << std::endl;
}

// at:: spelling, a constant expression, a nested block.
void atSpelling(Net &model, std::vector<torch::Tensor> &inputs) {
  constexpr bool kTraining = false;
  torch::Tensor total = torch::zeros({});
  {
    at::AutoGradMode guard(kTraining);
    for (auto &x : inputs)
      total = total + model.forward(x).mean();
  }
  std::cout << total << std::endl;
}

// Recording back on inside a no-grad scope: the loop keeps every graph.
void backOnInside(Net &model, std::vector<torch::Tensor> &inputs) {
  torch::NoGradGuard no_grad;
  torch::Tensor total = torch::zeros({});
  {
    torch::AutoGradMode enable_grad(true);
    for (auto &x : inputs) {
      total += model.forward(x).sum();
      // CHECK: :[[@LINE-1]]:13: warning: 'total' keeps {{.*}} across loop iterations
      // CHECK: :[[@LINE-3]]:5: note: in this loop
    }
  }
  // Off again after the inner scope ends.
  for (auto &x : inputs)
    total += model.forward(x).sum();
  std::cout << total << std::endl;
}

void inferenceModeOff(Net &model, std::vector<torch::Tensor> &inputs) {
  c10::InferenceMode outer;
  std::vector<torch::Tensor> outputs;
  {
    c10::InferenceMode inner(false);
    for (auto &x : inputs)
      outputs.push_back(model.forward(x));
    // CHECK: :[[@LINE-1]]:15: warning: 'outputs' keeps {{.*}} across loop iterations
    // CHECK: :[[@LINE-3]]:5: note: in this loop
    // CHECK: :[[@LINE-3]]:25: note: 'model.forward(x)' carries the graph of this call of 'model'
  }
  std::cout << outputs.size() << std::endl;
}

// The flag's value is not known here: no finding rests on it.
void flagged(Net &model, std::vector<torch::Tensor> &inputs, bool training) {
  torch::AutoGradMode mode(training);
  torch::Tensor total = torch::zeros({});
  for (auto &x : inputs)
    total += model.forward(x).sum();
  std::cout << total << std::endl;
}

// A guard declared after the loop does not cover it.
void guardAfter(Net &model, std::vector<torch::Tensor> &inputs) {
  torch::Tensor total = torch::zeros({});
  for (auto &x : inputs)
    total += model.forward(x).sum();
  // CHECK: :[[@LINE-1]]:11: warning: 'total' keeps {{.*}} across loop iterations
  // CHECK: :[[@LINE-3]]:3: note: in this loop
  torch::AutoGradMode enable_grad(false);
  std::cout << total << std::endl;
}

// GradMode::set_enabled() sets the thread's mode: it holds past its block,
// until it is set again.
void setEnabled(Net &model, std::vector<torch::Tensor> &inputs) {
  std::vector<torch::Tensor> outputs;
  {
    torch::autograd::GradMode::set_enabled(false);
  }
  for (auto &x : inputs)
    outputs.push_back(model.forward(x));
  torch::autograd::GradMode::set_enabled(true);
  torch::Tensor total = torch::zeros({});
  for (auto &x : inputs)
    total += model.forward(x).sum();
  // CHECK: :[[@LINE-1]]:11: warning: 'total' keeps {{.*}} across loop iterations
  // CHECK: :[[@LINE-3]]:3: note: in this loop
  std::cout << outputs.size() << total << std::endl;
}

// A template's setting is known per instantiation.
template <bool Recording>
void perInstantiation(Net &model, std::vector<torch::Tensor> &inputs) {
  torch::AutoGradMode mode(Recording);
  torch::Tensor total = torch::zeros({});
  for (auto &x : inputs)
    total += model.forward(x).sum();
  // CHECK: :[[@LINE-1]]:11: warning: 'total' keeps {{.*}} across loop iterations
  // CHECK: :[[@LINE-3]]:3: note: in this loop
  std::cout << total << std::endl;
}
template void perInstantiation<false>(Net &, std::vector<torch::Tensor> &);
template void perInstantiation<true>(Net &, std::vector<torch::Tensor> &);
