// RUN: %check_lint %s --checks='-*,libtorch-mixed-device-operands' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

using Tensor = torch::Tensor;

// A host constant meets a tensor on the device the program chose.
void hostConstant() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::Tensor weights = torch::ones({4});
  torch::Tensor x = torch::randn({4}).to(device);
  auto y = x * weights;
  // CHECK: :[[@LINE-1]]:14: warning: 'weights' is on the CPU (created by 'torch::ones' without a device) but 'x' is on 'device' (moved with '.to(device)'); '*' needs all its tensor operands on one device [libtorch-mixed-device-operands]
  // CHECK: :[[@LINE-4]]:27: note: created here by 'torch::ones' on the CPU
  // CHECK: :[[@LINE-4]]:39: note: 'torch::randn({4})' is moved to 'device' here with '.to(device)'
}

// at::Tensor, auto, const auto& and a user alias are all tensors.
void spellings() {
  at::Tensor a = at::zeros({2, 2}, at::kCUDA);
  auto b = torch::eye(2);
  const auto &c = b;
  Tensor d = torch::matmul(a, c);
  // CHECK: :[[@LINE-1]]:14: warning: 'c' is on the CPU (created by 'torch::eye' without a device) but 'a' is on 'cuda' (created by 'at::zeros'); 'torch::matmul' needs all its tensor operands on one device
  a.add_(b);
  // CHECK: :[[@LINE-1]]:3: note: 'c', or a value computed from it, also meets another device here
  auto e = torch::eye(2);
  a.add_(e);
  // CHECK: :[[@LINE-1]]:5: warning: 'e' is on the CPU {{.*}} but 'a' is on 'cuda' {{.*}}'.add_()' needs
}

// The device is a DeviceType chosen by if/else.
void ifElseDeviceType(bool gpu) {
  torch::DeviceType type;
  if (torch::cuda::is_available())
    type = torch::kCUDA;
  else
    type = torch::kCPU;
  torch::Tensor x = torch::rand({3}, torch::TensorOptions().device(type));
  torch::Tensor bias = torch::zeros({3});
  x = x + bias;
  // CHECK: :[[@LINE-1]]:9: warning: 'bias' is on the CPU {{.*}} but 'x' is on 'type' (created by 'torch::rand'); '+' needs
}

// Moved on one path only: mixed on the other.
void onePath(bool useGpu) {
  torch::Tensor x = torch::randn({8});
  torch::Tensor y = torch::randn({8});
  if (useGpu)
    x = x.cuda();
  auto z = torch::cat({x, y});
  // CHECK: :[[@LINE-1]]:12: warning: 'y' is on the CPU {{.*}} but 'x' is on 'cpu' or 'cuda'{{.*}}'torch::cat' needs
}

// Results brought back to the host meet device tensors again.
void broughtBack(torch::Device device) {
  auto x = torch::randn({2}, device);
  auto host = x.cpu();
  auto again = host - x;
  // CHECK: :[[@LINE-1]]:21: warning: 'host' is on the CPU (copied back with '.cpu()') but 'x' is on 'device' (created by 'torch::randn'); '-' needs
}

// Two GPUs.
void twoGpus() {
  auto a = torch::ones({2}, torch::Device("cuda:0"));
  auto b = torch::ones({2}, torch::Device(torch::kCUDA, 1));
  auto c = a.mul(b);
  // CHECK: :[[@LINE-1]]:14: warning: 'a' is on 'cuda:0' {{.*}} but 'b' is on 'cuda:1'
}

// Tensors inside a struct-defined model and a Sequential.
struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

void moduleOutputs(torch::Device device) {
  auto net = std::make_shared<Net>();
  net->to(device);
  torch::nn::Sequential seq(torch::nn::Linear(4, 4), torch::nn::ReLU());
  seq->to(device);
  auto mask = torch::ones({1, 2});
  auto out = net->forward(seq->forward(torch::randn({1, 4}, device))) * mask;
  // CHECK: :[[@LINE-1]]:71: warning: 'mask' is on the CPU {{.*}} but 'net->forward({{.*}}' is on 'device' (output of 'net')
}

// A training loop over a data loader: a host-made mask meets the moved batch.
template <typename Loader> void trainLoop(Loader &loader) {
  torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA)
                                                     : torch::Device(torch::kCPU);
  auto mask = torch::ones({28, 28});
  for (auto &batch : loader) {
    auto images = batch.data.to(device);
    auto masked = images * mask;
    // CHECK: :[[@LINE-1]]:26: warning: 'mask' is on the CPU (created by 'torch::ones' without a device) but 'images' is on 'device' (moved with '.to(device)'); '*' needs
  }
}
template void trainLoop(std::vector<torch::data::Example<>> &);

// *_like follows its argument; .to(device, dtype) moves; torch::tensor({...})
// is built on the host.
void likeAndLiterals(torch::Device device) {
  auto host = torch::rand({2});
  auto moved = host.to(device, torch::kHalf);
  auto like = torch::zeros_like(host);
  auto a = like + moved;
  // CHECK: :[[@LINE-1]]:17: warning: 'like' is on the CPU (created by 'torch::zeros_like' without a device) but 'moved' is on 'device' (moved with '.to(device, torch::kHalf)'); '+' needs
  auto literal = torch::tensor({1.0, 2.0});
  auto b = moved * literal;
  // CHECK: :[[@LINE-1]]:18: warning: 'literal' is on the CPU (built from host values by 'torch::tensor') but 'moved' is on 'device' (moved with '.to(device, torch::kHalf)'); '*' needs
  auto c = moved * torch::tensor(2.0); // 0-dim: fine.
}

// A weightless module (a loss) only needs its inputs to agree.
void lossModule(torch::Device device) {
  torch::nn::MSELoss criterion;
  auto prediction = torch::randn({3}, device);
  auto loss = criterion(prediction, torch::ones({3}));
  // CHECK: :[[@LINE-1]]:15: warning: 'torch::ones({3})' is on the CPU (created by 'torch::ones' without a device) but 'prediction' is on 'device' (created by 'torch::randn'); 'criterion' needs all its tensor operands on one device
}

// An element of a container of tensors is where the container's tensors
// are: the chunks of a module's output are on its device.
void chunks(torch::nn::Linear model, torch::Device device) {
  model->to(device);
  auto parts = model->forward(torch::randn({4, 8}, device)).chunk(2, 1);
  auto gate = parts.at(1) * torch::ones({4, 1});
  // CHECK: :[[@LINE-1]]:27: warning: 'torch::ones({4, 1})' is on the CPU (created by 'torch::ones' without a device) but 'parts.at(1)' is on 'device'
}
