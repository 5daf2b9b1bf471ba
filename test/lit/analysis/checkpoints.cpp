// torch::load restores a module's tensors to the device they were saved
// from, or onto the device it is given. A module loaded from a file this
// function saved is where the saved one was; one loaded from a file saved
// elsewhere is taken to stay where it is.
// RUN: %check_lint %s --checks='%bug_checks' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);

void roundTrip(torch::Device device) {
  Net model;
  model->to(device);
  auto x = torch::randn({2, 4}, device);
  const std::string path = "model.pt";
  torch::save(model, path);
  // Restored onto 'device', where it was saved from: fine.
  Net loaded;
  torch::load(loaded, path);
  auto y = loaded->forward(x);
  // Restored onto the CPU, as asked.
  Net onHost;
  torch::load(onHost, path, torch::Device(torch::kCPU));
  auto z = onHost->forward(x);
  // CHECK: :[[@LINE-1]]:12: warning: 'onHost' is on the CPU (restored by 'torch::load' from 'path') but its input 'x' is on 'device'
  // CHECK: :[[@LINE-3]]:3: note: 'torch::load' restores 'onHost' here from 'path', onto the CPU
}

void fromAnotherRun(torch::Device device) {
  auto x = torch::randn({2, 4}, device);
  Net model;
  torch::load(model, "pretrained.pt");
  auto y = model->forward(x);
  // CHECK: :[[@LINE-1]]:12: warning: 'model' is on the CPU
}
