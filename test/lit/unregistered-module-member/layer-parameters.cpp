// A new tensor assigned to a parameter or buffer that a LibTorch layer
// registered: the layer keeps the registered one in parameters(), buffers()
// and to(device). Fixed by copying the values in with set_data.
// RUN: cp %s %t.cpp
// RUN: %clang_tidy %t.cpp --fix --checks='-*,libtorch-unregistered-module-member' -- %torch_flags > %t.out
// RUN: FileCheck %s --input-file=%t.out --implicit-check-not='warning:'
// RUN: grep -v 'FIXED:' %t.cpp | FileCheck %s --check-prefix=FIXED
// The fixed file is clean.
// RUN: %check_lint %t.cpp --checks='-*,libtorch-unregistered-module-member' -- %torch_flags \
// RUN:   | FileCheck %s --check-prefix=CLEAN --allow-empty
// CLEAN-NOT: warning:
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() {
    fc = register_module("fc", torch::nn::Linear(4, 2));
    bn = register_module("bn", torch::nn::BatchNorm1d(2));
    fc->weight = torch::zeros({2, 4}, torch::requires_grad());
    // CHECK: :[[@LINE-1]]:16: warning: 'fc->weight' is registered by its layer; assigning a new tensor to it leaves the registered one in 'parameters()' and 'to(device)', so the new one is never trained or moved; copy the values in with 'fc->weight.set_data(...)' [libtorch-unregistered-module-member]
    // FIXED: fc->weight.set_data(torch::zeros({2, 4}, torch::requires_grad()));
  }
  torch::nn::Linear fc{nullptr};
  torch::nn::BatchNorm1d bn{nullptr};
};

void initialise(Net &net, torch::nn::Conv2d conv) {
  net.bn->running_mean = torch::ones({2});
  // CHECK: :[[@LINE-1]]:24: warning: 'net.bn->running_mean' is registered by its layer
  // FIXED: net.bn->running_mean.set_data(torch::ones({2}));
  conv->bias = conv->bias * 0;
  // CHECK: :[[@LINE-1]]:14: warning: 'conv->bias' is registered by its layer
  // FIXED: conv->bias.set_data(conv->bias * 0);
}

// What keeps the registered tensor: set_data, copy_ without grad, the init
// functions; reading the parameter; members of the user's own modules.
struct Own : torch::nn::Module {
  Own() { scale = register_parameter("scale", torch::ones({1})); }
  torch::Tensor scale;
};
void keeps(torch::nn::Linear fc, Own &own) {
  fc->weight.set_data(torch::zeros({2, 4}));
  {
    torch::NoGradGuard no_grad;
    fc->bias.copy_(torch::zeros({2}));
  }
  torch::nn::init::xavier_uniform_(fc->weight);
  torch::Tensor w;
  w = fc->weight;
  own.scale = torch::ones({1});
}

// Loading weights through a helper that copies into the parameter and hands
// it back, or an in-place op's result: the same, registered tensor.
void load(torch::nn::Linear fc, const torch::Tensor &saved) {
  auto assign = [](torch::Tensor left, const torch::Tensor &right) {
    torch::NoGradGuard no_grad;
    left.copy_(right);
    return left;
  };
  fc->weight = assign(fc->weight, saved);
  fc->bias = fc->bias.zero_();
  fc->weight = torch::nn::init::normal_(fc->weight);
}

// Weight normalisation: the layer's weight is recomputed in forward() from
// parameters the module registered (g, v), so a new tensor each call is the
// design, trained through g and v and moved with them. (Shaped like a public
// PixelSNAIL port.)
struct WNConv2dImpl : torch::nn::Module {
  WNConv2dImpl(int64_t in, int64_t out) {
    conv = register_module("conv", torch::nn::Conv2d(in, out, 3));
    v = register_parameter("v", conv->weight.detach().clone());
    g = register_parameter(
        "g", conv->weight.norm(2, {1, 2, 3}, /*keepdim=*/true).detach().clone());
  }
  torch::Tensor forward(torch::Tensor x) {
    auto v_norm = v.norm(2, {1, 2, 3}, /*keepdim=*/true).clamp(1e-10);
    this->conv->weight = this->g * this->v / v_norm;
    return conv->forward(x);
  }
  torch::nn::Conv2d conv{nullptr};
  torch::Tensor v, g;
};
