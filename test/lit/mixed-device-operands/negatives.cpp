// RUN: %check_lint %s --checks='-*,libtorch-mixed-device-operands' -- %torch_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include <torch/torch.h>

// 0-dim CPU scalars mix with tensors on any device.
void scalars(torch::Device device) {
  auto output = torch::randn({4, 10}, device);
  auto a = output / 2.0;
  auto b = output * torch::tensor(0.5);
  auto c = output + torch::scalar_tensor(1.0);
  auto d = output - torch::zeros({});
  auto e = output * output.sum();
}

// Everything on the same device variable, however it got there.
void sameDevice(torch::Device device) {
  auto x = torch::randn({3}).to(device);
  auto y = torch::zeros({3}, torch::TensorOptions().device(device).dtype(torch::kFloat));
  auto z = torch::zeros_like(x);
  auto w = torch::ones({3}, x.options());
  auto v = torch::ones({3}).to(x.device());
  auto u = torch::ones({3}).to(x);
  auto t = x.to(torch::kDouble).to(torch::kFloat);
  auto sum = x + y + z + w + v + u + t;
}

// Copies between devices are what .to() and copy_ are for.
void crossDevice(torch::Device device) {
  auto host = torch::zeros({3});
  auto dev = torch::ones({3}, device);
  host.copy_(dev);
  auto back = dev.to(torch::kCPU);
  auto both = host + back;
  std::cout << dev << host << std::endl;
}

// CPU-only code and parameters of unknown placement.
void unknowns(const torch::Tensor &a, torch::Tensor b) {
  auto c = a + b;
  auto d = torch::ones({3}) + a;
  auto e = torch::randn({3}) * torch::rand({3});
}

// A class called Tensor in another namespace is not LibTorch.
namespace mylib {
struct Tensor {
  Tensor operator+(const Tensor &) const { return *this; }
};
Tensor ones(int) { return {}; }
} // namespace mylib
namespace at_user {
namespace at {
struct Tensor {
  Tensor to(int) const { return *this; }
};
} // namespace at
} // namespace at_user
void notTorch() {
  mylib::Tensor a = mylib::ones(1), b;
  auto c = a + b;
  at_user::at::Tensor t;
  t.to(1);
}

// The model and its inputs on the same device; losses of moved tensors.
struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x) * 2; }
  torch::nn::Linear fc{nullptr};
};
void training(torch::Device device) {
  Net net;
  net.to(device);
  auto x = torch::randn({8, 4}).to(device);
  auto target = torch::randint(0, 2, {8}).to(device);
  auto loss = torch::cross_entropy_loss(net.forward(x), target);
}

// torch::stack / torch::cat of a vector of device tensors: on the device,
// not created on the host (REINFORCE's log-probabilities).
void reinforce(Net &policy, torch::Device device, int steps) {
  std::vector<torch::Tensor> log_probs;
  for (int t = 0; t < steps; ++t)
    log_probs.push_back(policy.forward(torch::randn({1, 4}, device)).log());
  auto returns = torch::tensor({1.0, 0.5}).to(device);
  auto loss = -(torch::stack(log_probs) * returns).sum();
  auto joined = torch::cat(log_probs) + returns;
}

// A tensor member that is never registered stays where it was created: not
// on the module's device. Combined with another host tensor it is correct.
struct AnchorGrid : torch::nn::Module {
  AnchorGrid() {
    fc = register_module("fc", torch::nn::Linear(4, 4));
    grid = torch::arange(4);
  }
  torch::Tensor shifted() { return grid + torch::ones({4}); }
  torch::nn::Linear fc{nullptr};
  torch::Tensor grid;
};

// An example built by hand from tensors already on the device is not a
// data-loader batch: its data and target are where they were put.
void handBuiltExample(torch::nn::Linear model, torch::Device device) {
  model->to(device);
  torch::data::Example<> example(torch::randn({4, 8}, device),
                                 torch::randn({4, 2}, device));
  auto loss = torch::mse_loss(model->forward(example.data), example.target);
}
