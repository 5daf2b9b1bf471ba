// A module's registered parameters, buffers and submodules move with it:
// read through accessors (`net->fc1->weight`, `parameters()[i]`,
// `named_parameters()["fc1.weight"]`) they are where the module is. A host
// tensor combined with them after `net->to(device)` is a device mix. Shaped
// like the weight penalties and weight-tying code of public training loops.
// RUN: %check_lint %s --checks='-*,libtorch-mixed-device-operands' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl()
      : fc1(register_module("fc1", torch::nn::Linear(4, 8))),
        fc2(register_module("fc2", torch::nn::Linear(8, 2))) {}
  torch::Tensor forward(torch::Tensor x) {
    return fc2->forward(torch::relu(fc1->forward(x)));
  }
  torch::nn::Linear fc1, fc2;
  torch::nn::Linear unregistered{4, 4};
};
TORCH_MODULE(Net);

// The shape: an L2 penalty towards a host reference on one layer's weight.
torch::Tensor penalty(torch::Device device) {
  Net net;
  net->to(device);
  auto reference = torch::zeros({8, 4});
  return (net->fc1->weight - reference).pow(2).sum();
  // CHECK: :[[@LINE-1]]:28: warning: 'reference' is on the CPU (created by 'torch::zeros' without a device) but 'net->fc1->weight' is on 'device' (moved with '.to(device)'); '-' needs all its tensor operands on one device [libtorch-mixed-device-operands]
}

// One step removed: through parameters() and named_parameters().
torch::Tensor by_index(Net &net) {
  net->to(torch::kCUDA);
  auto mask = torch::ones({8, 4});
  auto scale = torch::full({2}, 0.5);
  auto first = net->parameters()[0] * mask;
  // CHECK: :[[@LINE-1]]:37: warning: 'mask' is on the CPU {{.*}} but 'net->parameters()[0]' is on 'cuda' {{.*}}'*' needs all its tensor operands on one device [libtorch-mixed-device-operands]
  return first.sum() + (net->named_parameters()["fc2.bias"] * scale).sum();
  // CHECK: :[[@LINE-1]]:61: warning: 'scale' is on the CPU {{.*}} but 'net->named_parameters()["fc2.bias"]' is on 'cuda' {{.*}}'*' needs all its tensor operands on one device [libtorch-mixed-device-operands]
}

// Through a helper that takes the layer from the model.
torch::Tensor weight_of(torch::nn::Linear &layer) { return layer->weight; }
torch::Tensor tied(Net &net) {
  net->to(torch::kCUDA);
  auto host = torch::eye(4);
  return torch::matmul(weight_of(net->fc1), host);
  // CHECK: :[[@LINE-1]]:10: warning: 'host' is on the CPU {{.*}} but 'weight_of(net->fc1)' is on 'cuda' {{.*}}'torch::matmul' needs all its tensor operands on one device [libtorch-mixed-device-operands]
}

// Negatives: the tensors moved along; a member the module never
// registered (it does not move; the unregistered-member check says so);
// a module whose place is not known.
torch::Tensor negatives(Net &moved, Net &unknown, torch::Device device) {
  moved->to(device);
  auto reference = torch::zeros({8, 4}, device);
  auto a = (moved->fc1->weight - reference).sum();
  auto b = moved->unregistered->weight * torch::ones({4, 4});
  auto c = unknown->fc1->weight * torch::ones({8, 4});
  return a + b.sum() + c.sum();
}
