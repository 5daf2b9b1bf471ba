// RUN: %check_lint %s --checks='-*,libtorch-graph-retaining-accumulation' -- %torch_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

void correct(Net &model, std::vector<torch::Tensor> &inputs) {
  double total = 0;
  torch::Tensor running = torch::zeros({});
  std::vector<torch::Tensor> kept;
  for (auto &x : inputs) {
    auto loss = model.forward(x).sum();
    loss.backward();
    total += loss.item<double>();        // A number: no graph.
    running += loss.item<float>();       // Adding a number to a tensor.
    kept.push_back(loss.detach());       // Detached first.
    running = running + loss.detach();
  }
  std::cout << total << running << std::endl;
}

// Evaluation under NoGradGuard / InferenceMode builds no graph.
void evaluate(Net &model, std::vector<torch::Tensor> &inputs) {
  torch::Tensor total = torch::zeros({});
  std::vector<torch::Tensor> outputs;
  {
    torch::NoGradGuard no_grad;
    for (auto &x : inputs) {
      total += model.forward(x).sum();
      outputs.push_back(model.forward(x));
    }
  }
  c10::InferenceMode guard;
  for (auto &x : inputs)
    total = total + model.forward(x).mean();
}

// Gradient accumulation over micro-batches, then backward() on the sum.
void microBatches(Net &model, torch::optim::Optimizer &optimizer,
                  std::vector<torch::Tensor> &chunks) {
  torch::Tensor accumulated = torch::zeros({});
  for (auto &chunk : chunks)
    accumulated += model.forward(chunk).mean();
  (accumulated / static_cast<double>(chunks.size())).backward();
  optimizer.step();

  std::vector<torch::Tensor> parts;
  for (auto &chunk : chunks)
    parts.push_back(model.forward(chunk).mean());
  torch::stack(parts).sum().backward();
}

// An accumulator that dies with the iteration, or is handed to the caller.
torch::Tensor perIteration(Net &model, std::vector<torch::Tensor> &inputs) {
  torch::Tensor kept = torch::zeros({});
  for (auto &x : inputs) {
    torch::Tensor local = torch::zeros({});
    local += model.forward(x).sum();
    kept += model.forward(x).sum();
  }
  return kept;
}

// Outside any loop.
void once(Net &model, torch::Tensor x) {
  torch::Tensor total = torch::zeros({});
  total += model.forward(x).sum();
}

// REINFORCE: log-probabilities kept over one episode reach backward()
// through a named loss, and are cleared for the next episode.
void reinforce(torch::nn::Linear policy, int episodes) {
  std::vector<torch::Tensor> log_probs;
  for (int episode = 0; episode < episodes; ++episode) {
    for (int t = 0; t < 10; ++t)
      log_probs.push_back(policy->forward(torch::randn({1, 4})).log());
    auto policy_loss = -torch::stack(log_probs).sum();
    policy_loss.backward();
    log_probs.clear();
  }
}

// Writes into buffers that do not keep a graph: detached values, no-grad
// code, a buffer that dies with the iteration, and a buffer whose graph is
// what backward() is called through (an episode's log-probabilities).
void buffersWithoutRetention(Net &model, std::vector<torch::Tensor> &inputs) {
  auto values = torch::zeros({8, 2});
  auto rewards = torch::zeros({8});
  auto log_probs = torch::zeros({8, 2});
  for (int64_t i = 0; i < 8; ++i) {
    auto out = model.forward(inputs[i]);
    values[i].copy_(out[0].detach());
    rewards[i] = torch::ones({});
    {
      torch::NoGradGuard no_grad;
      values[i].copy_(model.forward(inputs[i])[0]);
    }
    auto scratch = torch::zeros({2});
    scratch.copy_(out[0]);
    log_probs[i] = out[0];
  }
  auto loss = -log_probs.sum();
  loss.backward();
}

// A module's forward() builds one graph per call: the layer outputs a loop
// over its layers keeps (skip connections, a feature pyramid's levels) are
// that graph's and die with the call (public code: YOLOv3's route layers,
// an FPN's lateral outputs).
struct PyramidImpl : torch::nn::Module {
  PyramidImpl() {
    for (int i = 0; i < 3; ++i)
      lateral->push_back(torch::nn::Conv2d(torch::nn::Conv2dOptions(8, 8, 1)));
    register_module("lateral", lateral);
  }
  std::vector<torch::Tensor> forward(std::vector<torch::Tensor> feats) {
    std::vector<torch::Tensor> lateralOuts;
    for (size_t i = 0; i < feats.size(); ++i)
      lateralOuts.push_back(
          lateral[i]->as<torch::nn::Conv2d>()->forward(feats[i]));
    std::vector<torch::Tensor> routed(lateralOuts.size());
    torch::Tensor x = lateralOuts.back();
    for (size_t i = 0; i < lateralOuts.size(); ++i) {
      x = x + lateralOuts[i];
      routed[i] = x;
    }
    std::vector<torch::Tensor> outs;
    for (const auto &level : routed)
      outs.push_back(level * 2);
    return outs;
  }
  torch::nn::ModuleList lateral;
};

// Pieces of one forward()'s outputs, taken out for drawing every few
// iterations: a loop over the outputs keeps parts of the same graph, which
// does not grow with it, and the next copy replaces them. (Shaped like a
// public YOLOv3 trainer.)
struct Detector : torch::nn::Module {
  Detector() { conv = register_module("conv", torch::nn::Conv2d(3, 8, 1)); }
  std::vector<torch::Tensor> forward(torch::Tensor x) {
    return {conv(x), conv(x) * 2};
  }
  torch::nn::Conv2d conv{nullptr};
};
void drawEveryFewSteps(Detector &model, torch::optim::SGD &opt,
                       std::vector<torch::Tensor> &images) {
  std::vector<torch::Tensor> output, firstOfBatch;
  for (size_t step = 0; step < images.size(); ++step) {
    output = model.forward(images[step]);
    auto loss = output.at(0).mean() + output.at(1).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    firstOfBatch = std::vector<torch::Tensor>(output.size());
    for (size_t i = 0; i < firstOfBatch.size(); ++i)
      firstOfBatch.at(i) = output.at(i)[0];
  }
}
