// RUN: %check_lint %s --checks='-*,libtorch-unregistered-module-member' -- %torch_flags \
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

// Stateless modules of the user's, defined here: a loss holding scalars and a
// box coder. Registering them changes nothing.
struct FocalLoss : torch::nn::Module {
  FocalLoss(double alpha, double gamma) : alpha(alpha), gamma(gamma) {}
  torch::Tensor forward(torch::Tensor logits, torch::Tensor targets) {
    auto p = torch::sigmoid(logits);
    return (alpha * (1 - p).pow(gamma) * targets).mean();
  }
  double alpha, gamma;
};
struct BoxCoderImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor boxes) { return boxes * 0.1; }
};
TORCH_MODULE(BoxCoder);
struct WithHelpers : torch::nn::Module {
  WithHelpers() : loss(std::make_shared<FocalLoss>(0.25, 2.0)) {
    fc = register_module("fc", torch::nn::Linear(4, 4));
  }
  torch::nn::Linear fc{nullptr};
  std::shared_ptr<FocalLoss> loss;
  BoxCoder coder;
};

// Layers reachable through a registered container are registered: built
// into it, pushed into a registered member container, extended, or added to
// a local container that is registered afterwards.
struct SharedLayers : torch::nn::Module {
  SharedLayers() {
    conv1 = torch::nn::Conv2d(1, 8, 3);
    conv2 = torch::nn::Conv2d(8, 8, 3);
    fc = torch::nn::Linear(8, 2);
    head = torch::nn::Linear(2, 2);
    features = register_module(
        "features", torch::nn::Sequential(conv1, torch::nn::ReLU(), conv2));
    classifier = register_module("classifier", torch::nn::Sequential());
    classifier->push_back(fc);
    torch::nn::Sequential tail;
    tail->push_back(head);
    register_module("tail", tail);
    torch::nn::Sequential more(torch::nn::Linear(2, 2));
    more->extend(*torch::nn::Sequential(drop));
    register_module("more", more);
  }
  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
  torch::nn::Linear fc{nullptr}, head{nullptr};
  torch::nn::Dropout drop;
  torch::nn::Sequential features{nullptr}, classifier{nullptr};
};

// A container member built from the layers in the constructor's initializer
// list: judged itself (registered), its layers through it.
struct Stacked : torch::nn::Module {
  Stacked()
      : fc1(torch::nn::Linear(4, 4)), fc2(torch::nn::Linear(4, 4)),
        layers(register_module("layers", torch::nn::ModuleList(fc1, fc2))) {}
  torch::nn::Linear fc1, fc2;
  torch::nn::ModuleList layers;
};

// Every member of a class whose constructor is defined in another file: the
// in-class initializers set them, the constructor may register them.
struct DefinedElsewhere : torch::nn::Module {
  DefinedElsewhere(int64_t in, int64_t out);
  torch::Tensor forward(torch::Tensor x) { return drop(fc(x)) * weight; }
  torch::nn::Linear fc{4, 2};
  torch::nn::Dropout drop{torch::nn::DropoutOptions(0.5)};
  torch::Tensor weight = torch::ones({2}, torch::requires_grad());
};

// A submodule of a class of the user's whose constructor is defined in
// another file, and whose declaration shows no weights: whether it holds any
// is unknown from here (with the project's facts it is known:
// project/modules.test).
struct Backbone : torch::nn::Module {
  Backbone(int64_t width);
  torch::Tensor forward(torch::Tensor x);
};
struct Detector : torch::nn::Module {
  Detector() {
    neck = register_module("neck", torch::nn::Conv2d(64, 64, 1));
    backbone = std::make_shared<Backbone>(64);
  }
  torch::Tensor forward(torch::Tensor x) { return neck(backbone->forward(x)); }
  torch::nn::Conv2d neck{nullptr};
  std::shared_ptr<Backbone> backbone;
};

// A holder: no forward() of its own, and the member handed out through an
// accessor. The program trains, moves and saves the Sequential it takes out;
// registering it in the holder changes nothing it does. (Shaped like a
// public DCGAN port.)
class Generator : public torch::nn::Module {
  torch::nn::Sequential main;

public:
  explicit Generator(int64_t nz) {
    main = torch::nn::Sequential(torch::nn::ConvTranspose2d(nz, 64, 4),
                                 torch::nn::BatchNorm2d(64),
                                 torch::nn::Functional(torch::relu));
  }
  torch::nn::Sequential get_module() { return main; }
};

// The constructor registers the handle it was given, which is the member
// too. (Shaped like a public DDPM port.)
struct DDPMImpl : torch::nn::Module {
  explicit DDPMImpl(const std::shared_ptr<torch::nn::Module> &model) {
    this->model = model;
    steps = 1000;
    register_module("model", model);
  }
  std::shared_ptr<torch::nn::Module> model;
  int steps = 0;
};

// Private members that no constructor or method names: an empty Sequential
// and a default Dropout are never run, so registering them changes nothing
// (public code: a ResNet encoder's leftover `avgpool, classifier`). The
// method template's body counts as seen.
struct LeftoverMembersImpl : torch::nn::Module {
private:
  torch::nn::Sequential first;
  torch::nn::Sequential avgpool, classifier;
  torch::nn::Dropout unusedDrop;
  int width = 4;

public:
  LeftoverMembersImpl() {
    first = register_module("first", makeLayers<torch::nn::Linear>());
  }
  template <typename Layer> torch::nn::Sequential makeLayers() {
    return torch::nn::Sequential(Layer(width, width));
  }
  torch::Tensor forward(torch::Tensor x) { return first->forward(x); }
};
TORCH_MODULE(LeftoverMembers);
