// data_parallel over several devices clones the module to each device on
// every call and reduces the gradients onto the module's own device
// (torch/nn/parallel/data_parallel.h). A module left on the CPU is copied
// from the host to every GPU in every iteration, and every gradient comes
// back to the host: its parameters are the same in every iteration, a
// loop-invariant transfer of the whole model.
// RUN: %check_lint %s --checks='-*,libtorch-loop-invariant-transfer' -- %torch_flags -I %S/../mixed-device-operands/Inputs \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>
#include <vector>
#include "data-parallel.h"

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

// The shape: the model is never moved, and each step replicates it.
void train(int steps) {
  auto model = std::make_shared<Net>();
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  for (int step = 0; step < steps; ++step) {
    torch::Tensor x = torch::rand({64, 4});
    auto out = torch::nn::parallel::data_parallel(
    // CHECK: :[[@LINE-1]]:16: warning: 'data_parallel' copies every parameter of 'model' from the CPU to each device in every iteration, and reduces its gradients back to the CPU; move 'model' to the first device once, before the loop [libtorch-loop-invariant-transfer]
    // CHECK: :[[@LINE-6]]:16: note: the module is created here, on the CPU
    // CHECK: :[[@LINE-5]]:3: note: in this loop
        model, x,
        std::vector<torch::Device>{torch::Device(torch::kCUDA, 0),
                                   torch::Device(torch::kCUDA, 1)});
    out.sum().backward();
    optimizer.step();
  }
}

// One step removed: the model is moved back to the CPU (to save a
// checkpoint) before the loop.
void fineTune(const std::shared_ptr<Net> &model, int steps) {
  model->to(torch::kCPU);
  torch::save(model, "before.pt");
  for (int step = 0; step < steps; ++step)
    torch::nn::parallel::data_parallel(
    // CHECK: :[[@LINE-1]]:5: warning: 'data_parallel' copies every parameter of 'model' from the CPU to each device in every iteration, and reduces its gradients back to the CPU; move 'model' to the first device once, before the loop [libtorch-loop-invariant-transfer]
    // CHECK: :[[@LINE-5]]:10: note: 'model' is moved to the CPU here with '.to(torch::kCPU)'
    // CHECK: :[[@LINE-4]]:3: note: in this loop
        model, torch::rand({64, 4}),
        std::vector<torch::Device>{torch::Device(torch::kCUDA, 0),
                                   torch::Device(torch::kCUDA, 1)})
        .sum()
        .backward();
}

// Through a helper: the step function replicates the module its only caller
// passes on the CPU, once per iteration of the caller's loop.
torch::Tensor parallelStep(const std::shared_ptr<Net> &net, torch::Tensor x) {
  return torch::nn::parallel::data_parallel(
  // CHECK: :[[@LINE-1]]:10: warning: 'data_parallel' copies every parameter of 'net' from the CPU to each device in every iteration, and reduces its gradients back to the CPU; move 'net' to the first device once, before the loop [libtorch-loop-invariant-transfer]
  // CHECK: :[[@LINE+11]]:18: note: 'net' is on the CPU here: passed by 'trainWithHelper'
  // CHECK: :[[@LINE+8]]:14: note: the module is created here, on the CPU
  // CHECK: :[[@LINE+9]]:5: note: 'parallelStep' is called in a loop here
      net, x,
      std::vector<torch::Device>{torch::Device(torch::kCUDA, 0),
                                 torch::Device(torch::kCUDA, 1)});
}

void trainWithHelper(int steps) {
  auto net = std::make_shared<Net>();
  for (int step = 0; step < steps; ++step)
    parallelStep(net, torch::rand({64, 4})).sum().backward();
}

// Negatives.
// The model is on the first device before the loop.
void movedFirst(int steps) {
  auto model = std::make_shared<Net>();
  model->to(torch::Device(torch::kCUDA, 0));
  for (int step = 0; step < steps; ++step)
    torch::nn::parallel::data_parallel(
        model, torch::rand({64, 4}),
        std::vector<torch::Device>{torch::Device(torch::kCUDA, 0),
                                   torch::Device(torch::kCUDA, 1)});
}

// One device: the first call moves the module itself there.
void oneDevice(int steps) {
  auto model = std::make_shared<Net>();
  for (int step = 0; step < steps; ++step)
    torch::nn::parallel::data_parallel(
        model, torch::rand({64, 4}),
        std::vector<torch::Device>{torch::Device(torch::kCUDA, 0)});
}

// The devices in a variable: one or several, it is not known.
void devicesInVariable(const std::vector<torch::Device> &devices, int steps) {
  auto model = std::make_shared<Net>();
  for (int step = 0; step < steps; ++step)
    torch::nn::parallel::data_parallel(model, torch::rand({64, 4}), devices);
}

// Once, outside any loop.
torch::Tensor once() {
  auto model = std::make_shared<Net>();
  return torch::nn::parallel::data_parallel(
      model, torch::rand({64, 4}),
      std::vector<torch::Device>{torch::Device(torch::kCUDA, 0),
                                 torch::Device(torch::kCUDA, 1)});
}

int main() {
  train(100);
  fineTune(std::make_shared<Net>(), 10);
  trainWithHelper(100);
  movedFirst(100);
  oneDevice(100);
  devicesInVariable({torch::Device(torch::kCUDA, 0)}, 100);
  once();
}
