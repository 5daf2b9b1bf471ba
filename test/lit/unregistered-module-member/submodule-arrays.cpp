// RUN: %check_lint %s --checks='-*,libtorch-unregistered-module-member' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// RUN: cp %s %t.cpp
// RUN: %clang_tidy %t.cpp --fix --checks='-*,libtorch-unregistered-module-member' -- %torch_flags > /dev/null
// RUN: grep -v 'FIXED:' %t.cpp | FileCheck %s --check-prefix=FIXED
// Each element of a member array (or std::array, std::vector) of submodule
// handles is a submodule of its own. Where the class names its elements by
// constant indices only, each is judged like a member: shaped like public
// transformer and GAN code whose `norm[2]` and `drop[2]` were left out of
// the registration their siblings got.
#include <torch/torch.h>

// The shape: the third layer norm is set but never registered.
struct EncoderImpl : torch::nn::Module {
  EncoderImpl() {
    fc = register_module("fc", torch::nn::Linear(64, 64));
    norm[0] = register_module("norm0", torch::nn::LayerNorm(torch::nn::LayerNormOptions({64})));
    norm[1] = register_module("norm1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({64})));
    norm[2] = torch::nn::LayerNorm(torch::nn::LayerNormOptions({64}));
    // CHECK: :[[@LINE-1]]:5: warning: submodule 'norm[2]' is never passed to 'register_module'; 'to(device)' will not move it and 'parameters()' will not return its parameters
    // FIXED: norm[2] = register_module("norm2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({64})));
  }
  torch::Tensor forward(torch::Tensor x) {
    return norm[2](norm[1](norm[0](fc(x))));
  }
  torch::nn::Linear fc{nullptr};
  torch::nn::LayerNorm norm[3]{nullptr, nullptr, nullptr};
};
TORCH_MODULE(Encoder);

// One step removed: dropouts registered after they are set, but one.
struct BlockImpl : torch::nn::Module {
  BlockImpl(double p) {
    conv = register_module("conv", torch::nn::Conv2d(8, 8, 3));
    drop[0] = torch::nn::Dropout(p);
    drop[1] = torch::nn::Dropout(p);
    drop[2] = torch::nn::Dropout(p);
    // CHECK: :[[@LINE-1]]:5: warning: submodule 'drop[2]' is never passed to 'register_module'; 'train()' and 'eval()' will not reach it
    register_module("drop0", drop[0]);
    register_module("drop1", drop[1]);
  }
  torch::Tensor forward(torch::Tensor x) {
    return drop[2](drop[1](drop[0](conv(x))));
  }
  torch::nn::Conv2d conv{nullptr};
  torch::nn::Dropout drop[3];
};

// Through a helper: a std::array of heads, reached with at().
struct HeadsImpl : torch::nn::Module {
  HeadsImpl() {
    heads.at(0) = register_module("head0", torch::nn::Linear(16, 4));
    heads.at(1) = makeHead();
    // CHECK: :[[@LINE-1]]:5: warning: submodule 'heads[1]' is never passed to 'register_module'
    // FIXED: heads.at(1) = register_module("heads1", makeHead());
  }
  static torch::nn::Linear makeHead() { return torch::nn::Linear(16, 4); }
  torch::Tensor forward(torch::Tensor x) { return heads.at(0)(x) + heads.at(1)(x); }
  std::array<torch::nn::Linear, 2> heads{nullptr, nullptr};
};

// Not judged: an element set through a variable index, a loop over the
// array, the array handed on. Any of them may register any element.
struct LoopImpl : torch::nn::Module {
  LoopImpl() {
    for (int i = 0; i < 3; ++i)
      norm[i] = register_module("norm" + std::to_string(i),
                                torch::nn::LayerNorm(torch::nn::LayerNormOptions({8})));
    norm[2] = torch::nn::LayerNorm(torch::nn::LayerNormOptions({8}));
  }
  torch::nn::LayerNorm norm[3]{nullptr, nullptr, nullptr};
};
void registerAll(torch::nn::Module &owner, std::vector<torch::nn::Linear> &layers);
struct HandedOnImpl : torch::nn::Module {
  HandedOnImpl() : layers(2, torch::nn::Linear(nullptr)) {
    layers[0] = torch::nn::Linear(4, 4);
    layers[1] = torch::nn::Linear(4, 4);
    registerAll(*this, layers);
  }
  std::vector<torch::nn::Linear> layers;
};
struct RangeImpl : torch::nn::Module {
  RangeImpl() {
    stages[0] = torch::nn::Linear(4, 4);
    stages[1] = torch::nn::Linear(4, 4);
    int i = 0;
    for (auto &stage : stages)
      register_module("stage" + std::to_string(i++), stage);
  }
  torch::nn::Linear stages[2]{nullptr, nullptr};
};
// Every element registered.
struct AllRegisteredImpl : torch::nn::Module {
  AllRegisteredImpl() {
    norm[0] = register_module("norm0", torch::nn::LayerNorm(torch::nn::LayerNormOptions({8})));
    norm[1] = torch::nn::LayerNorm(torch::nn::LayerNormOptions({8}));
    register_module("norm1", norm[1]);
  }
  torch::nn::LayerNorm norm[2]{nullptr, nullptr};
};
