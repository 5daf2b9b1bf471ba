// RUN: %check_lint %s --checks='-*,libtorch-unregistered-module-member' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

// A holder assigned in the constructor body, next to one that is registered.
struct Net : torch::nn::Module {
  Net() {
    fc1 = register_module("fc1", torch::nn::Linear(784, 64));
    fc2 = torch::nn::Linear(64, 10);
    // CHECK: :[[@LINE-1]]:5: warning: submodule 'fc2' is never passed to 'register_module'; 'to(device)' will not move it and 'parameters()' will not return its parameters, so the optimizer never trains them [libtorch-unregistered-module-member]
  }
  torch::Tensor forward(torch::Tensor x) { return fc2(torch::relu(fc1(x))); }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
  // CHECK: :[[@LINE-1]]:35: note: 'fc2' is declared here
};

// TORCH_MODULE: the Impl class is the module; a constructor initializer.
struct EncoderImpl : torch::nn::Module {
  EncoderImpl() : conv(torch::nn::Conv2d(1, 8, 3)) {}
  // CHECK: :[[@LINE-1]]:19: warning: submodule 'conv' is never passed to 'register_module'
  torch::Tensor forward(torch::Tensor x) { return conv(x); }
  torch::nn::Conv2d conv;
};
TORCH_MODULE(Encoder);

// A shared_ptr to a user module, and an alias of the holder type. Head has
// no weights but reads is_training(): it must hear train()/eval().
struct Head : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    return is_training() ? x * 0.5 : x;
  }
};
using Layer = torch::nn::Linear;
// A class that registers some members: each one it forgot is a finding.
struct Model : torch::nn::Module {
  Model() {
    out = register_module("out", torch::nn::Linear(4, 4));
    head = std::make_shared<Head>();
    // CHECK: :[[@LINE-1]]:5: warning: submodule 'head' is never passed to 'register_module'; 'train()' and 'eval()' will not reach it
    encoder = Encoder();
    // CHECK: :[[@LINE-1]]:5: warning: submodule 'encoder' is never passed to 'register_module'
  }
  torch::nn::Linear out{nullptr};
  std::shared_ptr<Head> head;
  Encoder encoder{nullptr};
  Layer extra{4, 4};
  // CHECK: :[[@LINE-1]]:9: warning: submodule 'extra' is never passed to 'register_module'
};

// A tensor meant to be trained: created requiring grad, or marked so.
struct Affine : torch::nn::Module {
  Affine() {
    weight = torch::randn({4, 4}, torch::requires_grad());
    // CHECK: :[[@LINE-1]]:5: warning: parameter 'weight' is never passed to 'register_parameter'; 'to(device)' will not move it and 'parameters()' will not return it, so the optimizer never trains it
    scale = register_parameter("scale", torch::ones({4}));
    bias = torch::zeros({4});
    bias.requires_grad_();
    // CHECK: :[[@LINE-2]]:5: warning: parameter 'bias' is never passed to 'register_parameter'
  }
  torch::Tensor scale;
  at::Tensor weight;
  torch::Tensor bias;
};

// Class templates: each instantiation is read, the member reported once.
template <int Width> struct Wide : torch::nn::Module {
  Wide() { fc = torch::nn::Linear(Width, Width); }
  // CHECK: :[[@LINE-1]]:12: warning: submodule 'fc' is never passed to 'register_module'
  torch::nn::Linear fc{nullptr};
};
Wide<2> two;
Wide<3> three;

// Default-constructed holders hold a module from their declaration on: a
// user module with weights, and a dropout, which has none but must hear
// the model's train()/eval().
struct InnerImpl : torch::nn::Module {
  InnerImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Inner);
struct WithDefaults : torch::nn::Module {
  WithDefaults() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc(drop(inner(x))); }
  torch::nn::Linear fc{nullptr};
  Inner inner;
  // CHECK: :[[@LINE-1]]:9: warning: submodule 'inner' is never passed to 'register_module'; 'to(device)' will not move it and 'parameters()' will not return its parameters, so the optimizer never trains them
  // CHECK: :[[@LINE-2]]:9: note: 'inner' is declared here
  torch::nn::Dropout2d drop;
  // CHECK: :[[@LINE-1]]:24: warning: submodule 'drop' is never passed to 'register_module'; 'train()' and 'eval()' will not reach it, so it stays in training mode when the model is evaluated
  // CHECK: :[[@LINE-2]]:24: note: 'drop' is declared here
};

// User modules whose modes cannot be ruled out: one that holds a dropout,
// one whose forward() is defined elsewhere.
struct WithDropout : torch::nn::Module {
  WithDropout() { drop = register_module("drop", torch::nn::Dropout(0.2)); }
  torch::nn::Dropout drop{nullptr};
};
struct OpaqueForward : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x);
};
struct Detector : torch::nn::Module {
  Detector() {
    neck = register_module("neck", torch::nn::Conv2d(64, 64, 1));
    regulariser = std::make_shared<WithDropout>();
    // CHECK: :[[@LINE-1]]:5: warning: submodule 'regulariser' is never passed to 'register_module'; 'train()' and 'eval()' will not reach it
    opaque = std::make_shared<OpaqueForward>();
    // CHECK: :[[@LINE-1]]:5: warning: submodule 'opaque' is never passed to 'register_module'; 'train()' and 'eval()' will not reach it
  }
  torch::nn::Conv2d neck{nullptr};
  std::shared_ptr<WithDropout> regulariser;
  std::shared_ptr<OpaqueForward> opaque;
};

// Layers put in a container that is never registered are not registered
// either: each is reported.
struct LocalSequential : torch::nn::Module {
  LocalSequential() {
    conv = torch::nn::Conv2d(1, 8, 3);
    // CHECK: :[[@LINE-1]]:5: warning: submodule 'conv' is never passed to 'register_module'
    torch::nn::Sequential features(conv, torch::nn::ReLU());
    torch::nn::Sequential unused;
    unused->push_back(conv);
  }
  torch::nn::Conv2d conv{nullptr};
};

// A class that registers none of its members forgot registration as a whole:
// one finding, at the first member, with a note at each other one (the
// fix-its register them all: fixits.cpp). The checks come first: the
// finding's source excerpt spans every line its fix-its touch.
// CHECK: :[[@LINE+6]]:5: warning: none of the 4 submodules and parameters of 'PNASNetImpl' is passed to 'register_module' or 'register_parameter'; 'to(device)' will not move them and 'parameters()' will not return them, so the optimizer never trains them
// CHECK: :[[@LINE+6]]:5: note: 'bn' is set here, without 'register_module'
// CHECK: :[[@LINE+6]]:5: note: 'cell' is set here, without 'register_module'
// CHECK: :[[@LINE+6]]:5: note: 'gain' is set here, without 'register_parameter'
struct PNASNetImpl : torch::nn::Module {
  PNASNetImpl() {
    stem = torch::nn::Conv2d(3, 44, 3);
    bn = torch::nn::BatchNorm2d(44);
    cell = torch::nn::Sequential(torch::nn::Conv2d(44, 44, 3), torch::nn::ReLU());
    gain = torch::ones({1}, torch::requires_grad());
    relu = torch::nn::ReLU(); // stateless: not counted
  }
  torch::Tensor forward(torch::Tensor x) {
    return cell->forward(relu(bn(stem(x)))) * gain;
  }
  torch::nn::Conv2d stem{nullptr};
  torch::nn::BatchNorm2d bn{nullptr};
  torch::nn::Sequential cell{nullptr};
  torch::Tensor gain;
  torch::nn::ReLU relu{nullptr};
};
TORCH_MODULE(PNASNet);

// Only mode-dependent members: the finding says what they miss.
struct Regularised : torch::nn::Module {
  Regularised() : drop1(0.1), drop2(0.3) {}
  // CHECK: :[[@LINE-1]]:19: warning: none of the 2 submodules of 'Regularised' is passed to 'register_module'; 'train()' and 'eval()' will not reach them, so they stay in training mode when the model is evaluated
  // CHECK: :[[@LINE-2]]:31: note: 'drop2' is set here, without 'register_module'
  torch::Tensor forward(torch::Tensor x) { return drop2(drop1(x)); }
  torch::nn::Dropout drop1, drop2;
};

// An accessor does not make a module that runs its members a holder.
struct WithAccessor : torch::nn::Module {
  WithAccessor() { fc = torch::nn::Linear(4, 4); }
  // CHECK: :[[@LINE-1]]:20: warning: submodule 'fc' is never passed to 'register_module'
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear get() { return fc; }
  torch::nn::Linear fc{nullptr};
};

// An unused member is judged all the same when code this file cannot see
// may use it: a method defined in another file, or code outside the class
// reaching a public member.
struct PartlyDefined : torch::nn::Module {
  PartlyDefined() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  void grow(); // defined elsewhere
  torch::nn::Linear fc{nullptr};

private:
  torch::nn::Dropout drop;
  // CHECK: :[[@LINE-1]]:22: warning: submodule 'drop' is never passed to 'register_module'
};
struct PublicSpare : torch::nn::Module {
  PublicSpare() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
  torch::nn::Dropout spare;
  // CHECK: :[[@LINE-1]]:22: warning: submodule 'spare' is never passed to 'register_module'
};
