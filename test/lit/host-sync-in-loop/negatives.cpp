// RUN: %check_lint %s --checks='-*,libtorch-host-sync-in-loop' -- %torch_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='warning:'
// CHECK-NOT: warning:
#include <torch/torch.h>
#include <iostream>

void train(torch::nn::Linear model, std::vector<torch::data::Example<>> &loader,
           torch::Device device) {
  model->to(device);
  auto running = torch::zeros({}, device);
  int step = 0;
  for (auto &batch : loader) {
    auto loss = torch::mse_loss(model(batch.data.to(device)),
                                batch.target.to(device));
    running += loss.detach();   // stays on the device
    if (++step % 100 == 0) {    // once per logging interval
      std::cout << running.item<double>() / 100 << "\n";
      running.zero_();
    }
  }
  std::cout << running.item<double>() << "\n"; // after the loop
}

// Host tensors: these calls are cheap.
void host(std::vector<torch::Tensor> &rows) {
  for (auto &row : rows) {
    auto sum = torch::ones({3}).sum().item<float>();
    auto copy = torch::zeros({2}).cpu();
  }
}

// Where the tensor lives is not known: no finding.
void unknown(std::vector<torch::Tensor> &tensors) {
  for (auto &t : tensors)
    std::cout << t.item<float>() << "\n";
}

// Once per epoch, directly in the outer loop: not the hot loop.
void epochs(torch::nn::Linear model, std::vector<torch::Tensor> &inputs,
            torch::Device device) {
  model->to(device);
  for (int epoch = 0; epoch < 10; ++epoch) {
    auto total = torch::zeros({}, device);
    for (auto &x : inputs)
      total += model(x.to(device)).sum().detach();
    std::cout << "epoch " << epoch << ": " << total.item<double>() << "\n";
  }
}

// Syncs that are the point of the code: nonzero() must read how many rows
// its result has, and an early exit needs its answer in this iteration.
void syncsNeeded(std::vector<torch::data::Example<>> &loader,
                 torch::Device device) {
  for (auto &batch : loader) {
    auto hits = torch::nonzero(batch.data.to(device) == batch.target.to(device));
    if (hits.is_nonzero())
      break;
  }
}
