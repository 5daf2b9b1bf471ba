// RUN: %clang_tidy %s --checks='-*,libtorch-unregistered-module-member' -- %torch_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='warning:'
// CHECK-NOT: warning:
#include <torch/torch.h>

// Every way of registering.
struct Registered : torch::nn::Module {
  Registered() : conv(register_module("conv", torch::nn::Conv2d(1, 8, 3))) {
    fc = register_module("fc", torch::nn::Linear(4, 2));
    head = torch::nn::Linear(2, 2);
    register_module("head", head);
    weight = register_parameter("weight", torch::randn({2}));
    mean = register_buffer("mean", torch::zeros({2}));
    shared = this->register_module("shared", std::make_shared<Registered2>());
  }
  struct Registered2 : torch::nn::Module {};
  torch::nn::Conv2d conv;
  torch::nn::Linear fc{nullptr}, head{nullptr};
  torch::Tensor weight, mean;
  std::shared_ptr<Registered2> shared;
};

// Members left empty, constants and scratch tensors, modules held by value,
// and classes that are not modules.
struct Quiet : torch::nn::Module {
  Quiet() {
    scale = torch::ones({1}); // a constant, not trained
    fc = nullptr;
  }
  torch::Tensor forward(torch::Tensor x) {
    last_input = x.detach(); // scratch state set in forward
    return x * scale;
  }
  torch::nn::Linear fc{nullptr};
  torch::nn::Linear unused{nullptr};
  torch::Tensor scale, last_input;
};

struct NotAModule {
  NotAModule() : fc(torch::nn::Linear(4, 2)) {
    weight = torch::randn({2}, torch::requires_grad());
  }
  torch::nn::Linear fc;
  torch::Tensor weight;
};

// A project's own Module class in another namespace.
namespace mylib {
struct Module {};
struct Linear {};
} // namespace mylib
struct Mine : mylib::Module {
  Mine() { layer = std::make_shared<mylib::Linear>(); }
  std::shared_ptr<mylib::Linear> layer;
};

// Template patterns are not read; their uses instantiate nothing here.
template <typename T> struct Generic : torch::nn::Module {
  Generic() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::nn::Linear fc{nullptr};
};
Generic<float> instance;

// Modules without weights or modes: registering them changes nothing. A
// holder given nullptr and never set holds no module.
struct StatelessParts : torch::nn::Module {
  StatelessParts() {
    act = torch::nn::ReLU();
    register_module("drop", drop);
  }
  torch::nn::ReLU act{nullptr};
  torch::nn::MaxPool2d pool{torch::nn::MaxPool2dOptions(2)};
  torch::nn::Flatten flatten;
  torch::nn::Dropout drop;
  torch::nn::Dropout unused{nullptr};
};

// A constructor defined in another file may register a default-constructed
// holder: not reported from here.
struct ElsewhereBuilt : torch::nn::Module {
  ElsewhereBuilt();
  torch::nn::Dropout drop;
};
