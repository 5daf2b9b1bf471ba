// RUN: %check_lint %s --checks='-*,libtorch-missing-target-migration' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() {
    fc1 = register_module("fc1", torch::nn::Linear(784, 64));
    fc2 = register_module("fc2", torch::nn::Linear(64, 10));
  }
  torch::Tensor forward(torch::Tensor x) {
    return fc2->forward(torch::relu(fc1->forward(x)));
  }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};
TORCH_MODULE_IMPL(NetHolder, Net);

template <typename Loader> void unused(Loader &) {}

// The canonical bug: inputs moved, labels left on the host.
void trainLoop(torch::data::StatelessDataLoader<
               torch::data::datasets::MapDataset<
                   torch::data::datasets::MNIST,
                   torch::data::transforms::Stack<>>,
               torch::data::samplers::RandomSampler> &loader) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto model = std::make_shared<Net>();
  model->to(device);
  for (auto &batch : loader) {
    torch::Tensor data = batch.data.to(device);
    at::Tensor target = batch.target;
    auto output = model->forward(data);
    auto loss = torch::nll_loss(output, target);
    // CHECK: :[[@LINE-1]]:41: warning: 'target' is on the CPU (it comes from the data-loader batch) but 'output' is on 'device'; move it with 'target.to(device)' as well [libtorch-missing-target-migration]
    // CHECK: :[[@LINE-4]]:31: note: 'batch.target' comes from the data-loader batch, on the CPU
    // CHECK: :[[@LINE-4]]:19: note: output of 'model', on 'device'
    // CHECK: :[[@LINE-9]]:10: note: 'model' is moved to 'device' here with '.to(device)'
  }
}

// const auto& batches and a Sequential model.
template <typename Loader> void trainSequential(Loader &loader, torch::Device device) {
  torch::nn::Sequential model(torch::nn::Linear(4, 8), torch::nn::ReLU(),
                              torch::nn::Linear(8, 2));
  model->to(device);
  torch::nn::CrossEntropyLoss criterion;
  for (const auto &batch : loader) {
    const auto &output = model->forward(batch.data.to(device));
    auto loss = criterion(output, batch.target);
    // CHECK: :[[@LINE-1]]:35: warning: 'batch.target' is on the CPU (it comes from the data-loader batch) but 'output' is on 'device'; move it with 'batch.target.to(device)' as well
  }
}
using Batch = torch::data::Example<>;
template void trainSequential(std::vector<Batch> &, torch::Device);

// An input fed raw to a moved model.
void rawInput(NetHolder net, torch::Device device) {
  NetHolder model;
  model->to(device, /*non_blocking=*/true);
  auto x = torch::from_blob(nullptr, {1, 784});
  auto y = model(x);
  // CHECK: :[[@LINE-1]]:18: warning: input 'x' of 'model' is on the CPU ('torch::from_blob' wraps host memory) but the module is on 'device'; move it with 'x.to(device, /*non_blocking=*/true)'
  auto z = model->forward(torch::randn({1, 784}));
  // CHECK: :[[@LINE-1]]:27: warning: input 'torch::randn({1, 784})' of 'model' is on the CPU (created by 'torch::randn' without a device) but the module is on 'device'; move it with 'torch::randn({1, 784}).to(device, /*non_blocking=*/true)'
}

// The model never moved while its inputs did.
void modelLeftBehind(torch::Device device) {
  auto model = std::make_shared<Net>();
  auto input = torch::randn({2, 784}).to(device);
  auto out = model->forward(input);
  // CHECK: :[[@LINE-1]]:14: warning: 'model' is on the CPU (it is created there and never moved) but its input 'input' is on 'device'; move the module with 'model->to(device)' before calling it
}

// `x.to(device);` alone moves nothing.
void droppedResult(torch::Device device, const torch::Tensor &frozen) {
  auto x = torch::randn({4});
  x.to(device);
  // CHECK: :[[@LINE-1]]:5: warning: result of 'x.to(device)' is discarded; tensors do not move in place, so 'x' stays on the CPU
  frozen.cuda();
  // CHECK: :[[@LINE-1]]:10: warning: result of 'frozen.cuda()' is discarded; tensors do not move in place, so 'frozen' stays on an unknown device
  auto model = std::make_shared<Net>();
  model->to(device);
  // Reported once, at the dropped result, not again where x meets the model.
  auto y = model->forward(x);
}

// Structured bindings over an example.
void structured(std::vector<torch::data::Example<>> &examples, torch::Device device) {
  auto model = std::make_shared<Net>();
  model->to(device);
  for (auto &example : examples) {
    auto [data, target] = example;
    auto out = model->forward(data.to(device));
    auto loss = torch::nll_loss(out, target);
    // CHECK: :[[@LINE-1]]:38: warning: 'target' is on the CPU (it comes from the data-loader batch) but 'out' is on 'device'; move it with 'target.to(device)' as well
  }
}

// A conversion that names a device as well as a type still moves.
void droppedTypedMove(torch::Device device) {
  auto x = torch::randn({4});
  x.to(device, torch::kHalf);
  // CHECK: :[[@LINE-1]]:5: warning: result of 'x.to(device, torch::kHalf)' is discarded; tensors do not move in place, so 'x' stays on the CPU
}
