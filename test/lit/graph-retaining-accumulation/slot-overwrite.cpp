// A container's slot written with the same index in every iteration holds
// one graph at a time: each write frees the graph the slot held. Shaped
// like public actor-critic code that keeps the bootstrap value in the last
// slot of its value list, `values[n] = critic(next_state)`, once per update.
// A tensor's element written in place is different: every write chains onto
// the tensor's graph, whatever the index.
// RUN: %check_lint %s --checks='-*,libtorch-graph-retaining-accumulation' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

struct Critic : torch::nn::Module {
  Critic() { fc = register_module("fc", torch::nn::Linear(4, 1)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

torch::Tensor bootstrap(std::shared_ptr<Critic> &critic, torch::Tensor s) {
  return critic->forward(s).squeeze();
}

void rollouts(std::shared_ptr<Critic> critic, int n) {
  std::vector<torch::Tensor> values(n + 1), history(1000);
  auto table = torch::zeros({n + 1});
  for (int update = 0; update < 1000; ++update) {
    auto next_state = torch::rand({4});
    // The shape: the same slot each time.
    values[n] = critic->forward(next_state);
    // One step removed: an index computed from values the loop keeps.
    values.at(n - 1) = critic->forward(next_state) * 0.5;
    // Through a helper that returns the critic's output.
    values[n] = bootstrap(critic, next_state);

    // A new slot each iteration: every graph stays.
    history[update] = critic->forward(next_state);
    // CHECK: :[[@LINE-1]]:21: warning: 'history' keeps 'critic->forward(next_state)', which carries autograd history, across loop iterations
    // A tensor's element, written in place: the writes chain.
    table[n] = bootstrap(critic, next_state);
    // CHECK: :[[@LINE-1]]:14: warning: 'table' keeps 'bootstrap(critic, next_state)', which carries autograd history, across loop iterations
  }
}
