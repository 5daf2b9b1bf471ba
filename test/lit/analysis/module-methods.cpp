// Inside a Module's methods (not its constructor) the module's parameters,
// submodules and the tensors its callers pass in are on "the module's
// device", wherever the caller moved it; a tensor built there on the host is
// a device mix. A method's result is on the device of the module it is
// called on.
// RUN: %check_lint %s --checks='%bug_checks' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  explicit NetImpl(int n) {
    fc = register_module("fc", torch::nn::Linear(n, n));
    scale = register_parameter("scale", torch::ones({n}));
    // The constructor works on the host: no finding.
    auto init = torch::ones({n}) * scale;
  }
  torch::Tensor forward(torch::Tensor x) {
    auto noise = torch::randn(x.sizes());
    auto h = fc(x) + noise;
    // CHECK: :[[@LINE-1]]:20: warning: 'noise' is on the CPU (created by 'torch::randn' without a device) but 'fc(x)' is on the module's device (output of 'fc'); '+' needs all its tensor operands on one device [libtorch-mixed-device-operands]
    // CHECK: :[[@LINE-3]]:18: note: created here by 'torch::randn' on the CPU
    // CHECK: :[[@LINE-3]]:{{14|16}}: note: output of 'fc', on the module's device
    auto gated = x * torch::sigmoid(torch::zeros({4}));
    // CHECK: :[[@LINE-1]]:20: warning: 'torch::sigmoid(torch::zeros({4}))' is on the CPU (created by 'torch::zeros' without a device) but 'x' is on the module's device; '*' needs
    // Created like the input, or 0-dim: fine.
    auto mask = torch::ones({x.size(0)}, x.options());
    auto shifted = h * mask + torch::tensor(2.0);
    return h * scale + this->bias;
  }
  torch::Tensor encode(const at::Tensor &x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
  torch::Tensor scale;
  torch::Tensor bias = register_buffer("bias", torch::zeros({4}));
};
TORCH_MODULE(Net);

void use(std::vector<torch::data::Example<>> &loader, torch::Device device) {
  Net net(4);
  net->to(device);
  for (const auto &batch : loader) {
    auto code = net->encode(batch.data.to(device));
    auto wrong = code + batch.target;
    // CHECK: :[[@LINE-1]]:25: warning: 'batch.target' is on the CPU (it comes from the data-loader batch) but 'code' is on 'device'; move it with 'batch.target.to(device)' as well [libtorch-missing-target-migration]
    auto right = code + batch.target.to(device);
  }
}

// A method that moves its own module: callers forget where it was.
struct MovableImpl : torch::nn::Module {
  MovableImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  void toHost() { to(torch::kCPU); }
  torch::Tensor forward(const torch::Tensor &x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Movable);

void moved(torch::Device device) {
  Movable m;
  m->to(device);
  m->toHost();
  m(torch::ones({4}));
}
