// RUN: %check_lint %s --checks='-*,libtorch-graph-retaining-accumulation' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

// The article's bug: `train_loss += loss` keeps every iteration's graph.
template <typename Loader> void runningTotal(Loader &loader) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto model = std::make_shared<Net>();
  model->to(device);
  torch::Tensor train_loss = torch::zeros({}, device);
  for (auto &batch : loader) {
    auto output = model->forward(batch.data.to(device));
    torch::Tensor loss = torch::mse_loss(output, batch.target.to(device));
    loss.backward();
    train_loss += loss;
    // CHECK: :[[@LINE-1]]:16: warning: 'train_loss' keeps 'loss', which carries autograd history, across loop iterations; every iteration's graph stays alive until memory runs out; add its value with 'loss.item<double>()' [libtorch-graph-retaining-accumulation]
    // CHECK: :[[@LINE-6]]:3: note: in this loop
    // CHECK: :[[@LINE-6]]:19: note: 'loss' carries the graph of this call of 'model'
  }
}
template void runningTotal(std::vector<torch::data::Example<>> &);

// Keeping the loss tensors: at::Tensor, auto, const auto&.
void keepLosses(Net &model, std::vector<torch::Tensor> &inputs) {
  std::vector<at::Tensor> losses;
  at::Tensor sum = torch::zeros({1});
  for (const auto &x : inputs) {
    const auto &loss = model.forward(x).sum();
    losses.push_back(loss);
    // CHECK: :[[@LINE-1]]:12: warning: 'losses' keeps 'loss', which carries autograd history, across loop iterations; every iteration's graph stays alive until memory runs out; keep a detached copy with 'loss.detach()'
    sum = sum + loss;
    // CHECK: :[[@LINE-1]]:9: warning: 'sum' keeps 'loss', {{.*}} keep a detached copy with 'loss.detach()'
  }
  std::cout << losses.size() << sum << std::endl;
}

// A Sequential and a loss module; a while loop; a member accumulator.
struct Trainer {
  torch::nn::Sequential model{torch::nn::Linear(4, 1)};
  torch::nn::MSELoss criterion;
  torch::Tensor epoch_loss = torch::zeros({});

  void epoch(torch::Tensor x, torch::Tensor y, int steps) {
    int step = 0;
    while (step++ < steps) {
      auto loss = criterion(model->forward(x), y);
      epoch_loss.add_(loss);
      // CHECK: :[[@LINE-1]]:18: warning: 'epoch_loss' keeps 'loss', {{.*}} add its value with 'loss.item<double>()'
    }
  }
};

// Only a number leaves the function: the tensor total does not escape, and
// every iteration's graph stays alive until the return.
double meanLoss(Net &model, const std::vector<torch::Tensor> &inputs) {
  torch::Tensor total = torch::scalar_tensor(0.0);
  for (const auto &x : inputs) {
    auto loss = model.forward(x).sum();
    loss.backward();
    total = total + loss;
    // CHECK: :[[@LINE-1]]:11: warning: 'total' keeps 'loss', {{.*}} add its value with 'loss.item<double>()'
  }
  return total.item<double>() / static_cast<double>(inputs.size());
}

// Writing a grad-carrying value into a tensor that outlives the iteration
// keeps its graph just as `+=` does: copy_ into a slot of a buffer, an
// index_put_, an assignment to an element, and a slot of a vector.
void writesIntoBuffers(Net &model, std::vector<torch::Tensor> &inputs) {
  auto values = torch::zeros({8, 2});
  auto scores = torch::zeros({8, 2});
  auto hidden = torch::zeros({1, 2});
  std::vector<torch::Tensor> slots(8);
  for (int64_t i = 0; i < 8; ++i) {
    auto out = model.forward(inputs[i]);
    values[i].copy_(out[0]);
    // CHECK: :[[@LINE-1]]:15: warning: 'values' keeps 'out[0]', which carries autograd history, across loop iterations; every iteration's graph stays alive until memory runs out; keep a detached copy with 'out[0].detach()' [libtorch-graph-retaining-accumulation]
    scores.index_put_({i}, out[0]);
    // CHECK: :[[@LINE-1]]:12: warning: 'scores' keeps 'out[0]'
    hidden.copy_(out);
    // CHECK: :[[@LINE-1]]:12: warning: 'hidden' keeps 'out'
    slots[i] = out;
    // CHECK: :[[@LINE-1]]:14: warning: 'slots' keeps 'out'
  }
}

// What a forward() keeps in the module itself outlives the call: every
// call's graph stays alive.
struct RememberingImpl : torch::nn::Module {
  RememberingImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor x) {
    for (int step = 0; step < 3; ++step) {
      x = fc->forward(x);
      history.push_back(x);
      // CHECK: :[[@LINE-1]]:15: warning: 'history' keeps 'x', which carries autograd history, across loop iterations
    }
    return x;
  }
  torch::nn::Linear fc{nullptr};
  std::vector<torch::Tensor> history;
};

// Outside forward(), a loop over data that keeps each step's output in a
// local vector keeps each step's graph.
void rollout(torch::nn::Linear policy, torch::Tensor state) {
  std::vector<torch::Tensor> values;
  for (int t = 0; t < 100; ++t) {
    auto value = policy->forward(state);
    values.push_back(value);
    // CHECK: :[[@LINE-1]]:12: warning: 'values' keeps 'value', which carries autograd history, across loop iterations
  }
  std::cout << values.size() << std::endl;
}

// Pieces of a value that the loop itself recomputes are that iteration's
// graph: kept by index, every iteration's stays alive.
void keepFirstOfEachStep(torch::nn::Linear &model,
                         std::vector<torch::Tensor> &inputs) {
  std::vector<torch::Tensor> firsts(inputs.size());
  torch::Tensor out;
  for (size_t i = 0; i < inputs.size(); ++i) {
    out = model(inputs[i]);
    firsts[i] = out[0];
    // CHECK: :[[@LINE-1]]:15: warning: 'firsts' keeps 'out[0]', which carries autograd history, across loop iterations
  }
}
