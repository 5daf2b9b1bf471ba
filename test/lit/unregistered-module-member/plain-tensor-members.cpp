// RUN: %check_lint %s --checks='-*,libtorch-unregistered-module-member' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

// A submodule's plain tensor members are no parameters or buffers of its:
// only a visible register_parameter/register_buffer makes them so. A
// submodule that registers nothing has nothing for its parent to move or
// train, so leaving it unregistered is not reported.

// The shape: a box coder keeps its anchor tables as plain members and moves
// them itself.
struct BoxCoderImpl : torch::nn::Module {
  BoxCoderImpl() {
    anchors = torch::rand({100, 4});
    variances = torch::tensor({0.1, 0.2});
  }
  void to_device(torch::Device device) {
    anchors = anchors.to(device);
    variances = variances.to(device);
  }
  torch::Tensor decode(const torch::Tensor &loc) {
    return anchors + loc * variances[0];
  }
  torch::Tensor anchors, variances;
};
TORCH_MODULE(BoxCoder);

// One step removed: a loss builds its window with a helper and moves it to
// the input's device on every call.
torch::Tensor gaussianWindow(int size, double sigma) {
  auto g = torch::arange(size, torch::kFloat) - size / 2;
  g = torch::exp(-(g * g) / (2 * sigma * sigma));
  return g / g.sum();
}
struct SSIMLossImpl : torch::nn::Module {
  SSIMLossImpl() : window(gaussianWindow(11, 1.5)) {}
  torch::Tensor forward(const torch::Tensor &a, const torch::Tensor &b) {
    auto w = window.to(a.device()).view({1, 1, -1});
    return (torch::conv1d(a, w) - torch::conv1d(b, w)).abs().mean();
  }
  torch::Tensor window;
};
TORCH_MODULE(SSIMLoss);

// Through a helper: the tables are filled by a method the constructor calls.
struct PriorBoxImpl : torch::nn::Module {
  PriorBoxImpl() { build(); }
  void build() { priors = torch::rand({8732, 4}); }
  torch::Tensor priors;
};
TORCH_MODULE(PriorBox);

struct Detector : torch::nn::Module {
  Detector() { head = register_module("head", torch::nn::Linear(16, 4)); }
  torch::Tensor forward(torch::Tensor x) {
    return coder->decode(head->forward(x)) + priors->priors;
  }
  torch::nn::Linear head{nullptr};
  BoxCoder coder;
  SSIMLoss ssim;
  PriorBox priors;
};

// Registration is seen wherever the class writes it: in a member
// initialiser, in the constructor's initialiser list, in reset().
struct InitialisedImpl : torch::nn::Module {
  torch::Tensor scale = register_parameter("scale", torch::ones({4}));
};
TORCH_MODULE(Initialised);
struct ListedImpl : torch::nn::Module {
  ListedImpl() : table(register_buffer("table", torch::zeros({4}))) {}
  torch::Tensor table;
};
TORCH_MODULE(Listed);
struct ResetImpl : torch::nn::Cloneable<ResetImpl> {
  ResetImpl() { reset(); }
  void reset() override { weight = register_parameter("weight", torch::randn({4})); }
  torch::Tensor weight;
};
TORCH_MODULE(Reset);

struct Head : torch::nn::Module {
  Head() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::nn::Linear fc{nullptr};
  Initialised initialised;
  // CHECK: :[[@LINE-1]]:15: warning: submodule 'initialised' is never passed to 'register_module'; 'to(device)' will not move it
  Listed listed;
  // CHECK: :[[@LINE-1]]:10: warning: submodule 'listed' is never passed to 'register_module'; 'to(device)' will not move it
  Reset reset;
  // CHECK: :[[@LINE-1]]:9: warning: submodule 'reset' is never passed to 'register_module'; 'to(device)' will not move it
};

// A constructor defined in another file may register anything: unknown.
struct OpaqueTablesImpl : torch::nn::Module {
  OpaqueTablesImpl();
  torch::Tensor table;
};
TORCH_MODULE(OpaqueTables);
struct Tail : torch::nn::Module {
  Tail() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::nn::Linear fc{nullptr};
  OpaqueTables tables;
};
