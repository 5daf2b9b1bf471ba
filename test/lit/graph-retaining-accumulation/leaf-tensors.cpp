// A tensor made with `requires_grad` is a leaf: it has no graph, so keeping
// it (a hand-built parameter pushed into a member vector in a constructor
// loop) retains nothing. What is computed from it does carry a graph. Shaped
// like the hand-written layers of public D2L ports and RL agents.
// RUN: %check_lint %s --checks='-*,libtorch-graph-retaining-accumulation' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

// The shape: parameters made with requires_grad options in a loop.
struct Mlp {
  explicit Mlp(const std::vector<int64_t> &widths) {
    for (size_t i = 0; i + 1 < widths.size(); ++i) {
      weights.push_back(torch::randn({widths[i], widths[i + 1]},
                                     torch::requires_grad()));
      biases.push_back(torch::zeros({widths[i + 1]},
                                    torch::TensorOptions().requires_grad(true)));
    }
  }
  std::vector<torch::Tensor> weights, biases;
};

// One step removed: the flag is set on the tensor after it is made.
std::vector<torch::Tensor> make_embeddings(int64_t n) {
  std::vector<torch::Tensor> tables;
  for (int64_t i = 0; i < n; ++i) {
    auto table = torch::randn({16, 8});
    table.requires_grad_();
    tables.push_back(table);
  }
  return tables;
}

// Through a helper that makes the leaf.
torch::Tensor make_parameter(int64_t rows, int64_t cols) {
  return (torch::randn({rows, cols}) * 0.01).set_requires_grad(true);
}
std::vector<torch::Tensor> make_layers(int64_t depth) {
  std::vector<torch::Tensor> layers;
  for (int64_t i = 0; i < depth; ++i)
    layers.push_back(make_parameter(8, 8));
  return layers;
}

// Positive: a value computed from a leaf is a graph node; keeping one per
// iteration keeps every iteration's graph.
void train(const std::vector<torch::Tensor> &batches) {
  auto w = torch::randn({4, 4}, torch::requires_grad());
  std::vector<torch::Tensor> outputs;
  for (const auto &x : batches) {
    auto out = torch::matmul(x, w);
    outputs.push_back(out);
    // CHECK: :[[@LINE-1]]:13: warning: 'outputs' keeps 'out', which carries autograd history, across loop iterations{{.*}} [libtorch-graph-retaining-accumulation]
  }
}
