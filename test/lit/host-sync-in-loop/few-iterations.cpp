// A loop over a few levels, heads or loss terms, counted by its header, is
// code written once and repeated: it does not make the training loop around
// it an epoch loop, and a copy inside it runs once per training step, in
// the training loop. Shaped like multi-head and feature-pyramid training
// code, whose step adds a loss term per level.
// RUN: %check_lint %s --checks='-*,libtorch-host-sync-in-loop' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>
#include <iostream>

using Loader = std::vector<torch::data::Example<>>;

// The shape: three extra loss terms added in a nested loop; the step's
// `.item()` is still once per step.
void train_terms(torch::nn::Linear model, Loader &loader,
                 torch::optim::SGD &optimizer, torch::Device device) {
  model->to(device);
  double total = 0;
  for (auto &batch : loader) {
    auto out = model(batch.data.to(device));
    auto loss = torch::mse_loss(out, batch.target.to(device));
    for (int k = 1; k <= 3; ++k)
      loss = loss + out.pow(k).mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    total += loss.item<double>();
    // CHECK: :[[@LINE-1]]:19: warning: '.item()' copies 'loss' (on 'device') to the host and waits for the device in every iteration; accumulate on the device {{.*}} [libtorch-host-sync-in-loop]
    // CHECK: :[[@LINE-10]]:3: note: in this loop
  }
}

// One step removed: the copy is inside the loop over the levels, once per
// level and step; the loop it costs in is the training loop.
void train_levels(torch::nn::Linear model, Loader &loader,
                  torch::optim::SGD &optimizer, torch::Device device) {
  model->to(device);
  double totals[4] = {0, 0, 0, 0};
  for (auto &batch : loader) {
    auto out = model(batch.data.to(device));
    auto loss = torch::mse_loss(out, batch.target.to(device));
    for (int level = 0; level < 4; ++level)
      totals[level] += out.select(1, level).mean().item<double>();
    // CHECK: :[[@LINE-1]]:52: warning: '.item()' copies 'out.select(1, level).mean()' (on 'device') to the host and waits for the device in every iteration
    // CHECK: :[[@LINE-6]]:3: note: in this loop
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
}

// Through a helper: a logging helper reads each of four heads, in a loop of
// its own over them; the training loop calls it once per step.
double sum_heads(const torch::Tensor &out) {
  double sum = 0;
  for (int head = 0; head < 4; ++head)
    sum += out.select(1, head).sum().item<double>();
  return sum;
}
void train_heads(torch::nn::Linear model, Loader &loader,
                 torch::optim::SGD &optimizer, torch::Device device) {
  model->to(device);
  std::vector<double> logged;
  for (auto &batch : loader) {
    auto out = model(batch.data.to(device));
    auto loss = torch::mse_loss(out, batch.target.to(device));
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    logged.push_back(sum_heads(out));
    // CHECK: :[[@LINE-1]]:22: warning: '.item()' copies 'out.select(1, head).sum()' (on 'device') to the host inside 'sum_heads' and waits for the device in every iteration
    // CHECK: :[[@LINE-8]]:3: note: in this loop
    // CHECK: :[[@LINE-16]]:38: note: '.item()' copies 'out.select(1, head).sum()' to the host here, each time 'sum_heads' runs
  }
}

// Negatives. A loop over four pyramid levels with no loop around it: four
// copies per call, wherever the call is.
std::vector<double> level_means(torch::Tensor features) {
  features = features.to(torch::kCUDA);
  std::vector<double> means;
  for (int level = 0; level < 4; ++level)
    means.push_back(features.select(1, level).mean().item<double>());
  for (auto level : {0, 1, 2})
    std::cout << features.select(1, level).sum() << "\n";
  return means;
}

// A counter the body changes is no count of the header's: that loop
// repeats as often as the data says.
void retried(torch::Tensor x) {
  x = x.to(torch::kCUDA);
  for (int attempt = 0; attempt < 3; ++attempt) {
    auto value = x.sum().item<double>();
    // CHECK: :[[@LINE-1]]:26: warning: '.item()' copies 'x.sum()' (on 'cuda') to the host
    std::cout << value;
    if (attempt == 2)
      attempt = 0;
  }
}

// An epoch loop around a training loop stays an epoch loop: its own copy
// runs once per epoch.
void epochs(torch::nn::Linear model, Loader &loader,
            torch::optim::SGD &optimizer, torch::Device device, int count) {
  model->to(device);
  for (int epoch = 0; epoch < count; ++epoch) {
    torch::Tensor last;
    for (auto &batch : loader) {
      last = torch::mse_loss(model(batch.data.to(device)),
                             batch.target.to(device));
      optimizer.zero_grad();
      last.backward();
      optimizer.step();
    }
    std::cout << last.item<double>() << "\n";
  }
}
