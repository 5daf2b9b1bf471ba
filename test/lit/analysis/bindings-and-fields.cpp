// Structured bindings, aggregates whose fields hold tensors, and classes
// whose members hold the model and the device.
// RUN: %check_lint %s --checks='%bug_checks' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

using Loader = std::vector<torch::data::Example<>>;

void bindings(Loader &loader, torch::nn::Linear &model, torch::Device device) {
  model->to(device);
  for (const auto &[data, target] : loader) {
    auto out = model(data.to(device));
    auto loss = torch::nll_loss(out, target);
    // CHECK: :[[@LINE-1]]:38: warning: 'target' is on the CPU (it comes from the data-loader batch) but 'out' is on 'device'; move it with 'target.to(device)' as well [libtorch-missing-target-migration]
    auto fine = torch::nll_loss(out, target.to(device));
  }
}

struct Batch {
  torch::Tensor images;
  torch::Tensor labels;
};

void aggregates(Loader &loader, torch::nn::Linear &model,
                torch::Device device) {
  model->to(device);
  for (auto &example : loader) {
    Batch b{example.data.to(device), example.target};
    auto out = model(b.images);
    auto loss = torch::nll_loss(out, b.labels);
    // CHECK: :[[@LINE-1]]:38: warning: 'b.labels' is on the CPU (it comes from the data-loader batch) but 'out' is on 'device'; move it with 'b.labels.to(device)' as well [libtorch-missing-target-migration]
    Batch moved;
    moved.images = example.data.to(device);
    moved.labels = example.target.to(device);
    auto fine = torch::nll_loss(model(moved.images), moved.labels);
  }
}

class Trainer {
public:
  Trainer(torch::nn::Linear model, torch::Device device)
      : model(model), device(device) {}

  void fit(Loader &loader) {
    model->to(device);
    for (auto &batch : loader) {
      auto out = model(batch.data.to(device));
      auto loss = torch::nll_loss(out, batch.target);
      // CHECK: :[[@LINE-1]]:40: warning: 'batch.target' is on the CPU (it comes from the data-loader batch) but 'out' is on 'device'; move it with 'batch.target.to(device)' as well [libtorch-missing-target-migration]
      auto fine = torch::nll_loss(out, batch.target.to(device));
    }
  }
  // Where `model` is on entry is the constructor's business: not flagged.
  torch::Tensor predict(const torch::Tensor &x) { return model(x); }

private:
  torch::nn::Linear model;
  torch::Device device;
};
