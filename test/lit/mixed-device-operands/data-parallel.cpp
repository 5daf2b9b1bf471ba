// torch::nn::parallel::data_parallel as LibTorch defines it
// (torch/nn/parallel/data_parallel.h): its output is on output_device, else
// on the first device, else on cuda:0; with one device it moves the module
// itself there. Labels left on the CPU meet the output; a module that
// data_parallel moved is on the device afterwards.
// RUN: %check_lint %s --checks='%bug_checks' -- %torch_flags -I %S/Inputs \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>
#include <vector>
#include "data-parallel.h"

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

// The shape: the output is gathered on the first device; the labels stay on
// the CPU.
double trainStep(const std::shared_ptr<Net> &model, torch::Device device) {
  torch::Tensor inputs = torch::rand({8, 4});
  torch::Tensor labels = torch::randint(2, {8});
  auto output = torch::nn::parallel::data_parallel(
      model, inputs, std::vector<torch::Device>{device});
  return torch::nll_loss(output, labels).item<double>();
  // CHECK: :[[@LINE-1]]:10: warning: 'labels' is on the CPU (created by 'torch::randint' without a device) but 'output' is on 'device' (output of 'data_parallel'); 'torch::nll_loss' needs all its tensor operands on one device [libtorch-mixed-device-operands]
  // CHECK: :[[@LINE-5]]:26: note: created here by 'torch::randint' on the CPU
  // CHECK: :[[@LINE-5]]:17: note: output of 'data_parallel', on 'device'
}

// One step removed: one device moves the module itself, so the evaluation
// after it, without data_parallel, feeds a CPU batch to a module on the
// device.
int64_t trainThenEvaluate(torch::Device device) {
  auto model = std::make_shared<Net>();
  torch::Tensor inputs = torch::rand({8, 4});
  torch::nn::parallel::data_parallel(model, inputs,
                                     std::vector<torch::Device>{device});
  torch::Tensor test = torch::rand({2, 4});
  return model->forward(test).argmax(1).size(0);
  // CHECK: :[[@LINE-1]]:10: warning: 'test' is on the CPU (created by 'torch::rand' without a device) but 'model' is on 'device' (moved with 'data_parallel'); 'model' needs all its tensor operands on one device [libtorch-mixed-device-operands]
  // CHECK: :[[@LINE-3]]:24: note: created here by 'torch::rand' on the CPU
  // CHECK: :[[@LINE-6]]:3: note: 'model' is moved to 'device' here with 'data_parallel'
}

// Through a helper: without a list (or with none spelled `nullopt`), every
// CUDA device; the output comes back on cuda:0 from the helper.
torch::Tensor predict(const std::shared_ptr<Net> &model, torch::Tensor x) {
  if (x.size(0) > 64)
    return torch::nn::parallel::data_parallel(model, x, /*devices=*/c10::nullopt,
                                              /*output_device=*/c10::nullopt);
  return torch::nn::parallel::data_parallel(model, x);
}

double evaluate(const std::shared_ptr<Net> &model) {
  torch::Tensor targets = torch::randint(2, {8});
  torch::Tensor scores = predict(model, torch::rand({8, 4}));
  return scores.argmax(1).eq(targets).sum().item<double>();
  // CHECK: :[[@LINE-1]]:27: warning: 'targets' is on the CPU (created by 'torch::randint' without a device) but 'scores.argmax(1)' is on 'cuda:0' (returned by 'predict(model, torch::rand({8, 4}))'); '.eq()' needs all its tensor operands on one device [libtorch-mixed-device-operands]
  // CHECK: :[[@LINE-4]]:27: note: created here by 'torch::randint' on the CPU
  // CHECK: :[[@LINE-4]]:26: note: 'predict(model, torch::rand({8, 4}))' returns it on 'cuda:0'
  // CHECK: :[[@LINE-10]]:10: note: output of 'data_parallel', on 'cuda:0'
  // CHECK: :[[@LINE-13]]:12: note: output of 'data_parallel', on 'cuda:0'
}

// Negatives.
// The output gathered on the CPU, where the labels are.
double outputOnHost(const std::shared_ptr<Net> &model, torch::Device device) {
  torch::Tensor labels = torch::randint(2, {8});
  auto output = torch::nn::parallel::data_parallel(
      model, torch::rand({8, 4}), std::vector<torch::Device>{device},
      torch::Device(torch::kCPU));
  return torch::nll_loss(output, labels).item<double>();
}

// Labels moved to the first device.
double labelsMoved(const std::shared_ptr<Net> &model, torch::Device device) {
  torch::Tensor labels = torch::randint(2, {8}).to(device);
  auto output = torch::nn::parallel::data_parallel(
      model, torch::rand({8, 4}), std::vector<torch::Device>{device});
  return torch::nll_loss(output, labels).item<double>();
}

// Several devices: the module is cloned, and stays where it is.
int64_t severalDevices() {
  auto model = std::make_shared<Net>();
  torch::nn::parallel::data_parallel(
      model, torch::rand({8, 4}),
      std::vector<torch::Device>{torch::Device(torch::kCUDA, 0),
                                 torch::Device(torch::kCUDA, 1)});
  return model->forward(torch::rand({2, 4})).size(0);
}

// Devices in a variable: one of them or several, the module's place after
// the call is not known.
int64_t devicesFromVariable(const std::vector<torch::Device> &devices) {
  auto model = std::make_shared<Net>();
  torch::nn::parallel::data_parallel(model, torch::rand({8, 4}), devices);
  return model->forward(torch::rand({2, 4})).size(0);
}

int main() {
  torch::Device device(torch::kCUDA, 0);
  auto model = std::make_shared<Net>();
  trainStep(model, device);
  trainThenEvaluate(device);
  evaluate(model);
  outputOnHost(model, device);
  labelsMoved(model, device);
  severalDevices();
  devicesFromVariable({device});
}
