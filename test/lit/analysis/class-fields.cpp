// A class of the user's that holds the model, the device and tensors of its
// own (a trainer, an agent): inside its methods, each private field holds
// what the class's own code ever stores in it. Class weights the
// constructor builds on the host stay there; the model it moves to its
// device member is on that device in every method.
// RUN: %check_lint %s --checks='%bug_checks' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// A host literal next to a moved prediction is a target left behind; its
// fix-it moves the member where it is used.
// RUN: cp %s %t.cpp
// RUN: %clang_tidy %t.cpp --fix --checks='-*,libtorch-missing-target-migration' -- %torch_flags > %t.out
// RUN: grep -v 'FIXED:' %t.cpp | FileCheck %s --check-prefix=FIXED
#include <torch/torch.h>

namespace F = torch::nn::functional;

struct Classifier : torch::nn::Module {
  Classifier() { fc = register_module("fc", torch::nn::Linear(16, 3)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

// The shape: weights built in the initialisers, used in a training step.
class Trainer {
public:
  explicit Trainer(torch::Device device)
      : device_(device), model_(std::make_shared<Classifier>()),
        class_weights_(torch::tensor({1.0, 2.0, 5.0})) {
    model_->to(device_);
  }
  torch::Tensor step(const torch::Tensor &x, const torch::Tensor &y) {
    auto logits = model_->forward(x.to(device_));
    return F::cross_entropy(logits, y.to(device_),
                            F::CrossEntropyFuncOptions().weight(class_weights_));
    // CHECK: :[[@LINE-1]]:65: warning: 'class_weights_' is on the CPU (built from host values by 'torch::tensor') but 'logits' is on 'device_'; move it with 'class_weights_.to(device_)' as well [libtorch-missing-target-migration]
    // CHECK: :[[@LINE-8]]:24: note: created here by 'torch::tensor' from host values
    // CHECK: :[[@LINE-5]]:19: note: output of 'model_', on 'device_'
    // FIXED: F::CrossEntropyFuncOptions().weight(class_weights_.to(device_)));
  }

private:
  torch::Device device_;
  std::shared_ptr<Classifier> model_;
  torch::Tensor class_weights_;
};

// One step removed: the buffer is filled by a method the constructor
// calls, and read in an evaluation method.
class Evaluator {
public:
  explicit Evaluator(torch::Device device) : device_(device) {
    model_ = std::make_shared<Classifier>();
    model_->to(device_);
    resetStatistics();
  }
  void resetStatistics() { counts_ = torch::zeros({3}); }
  void observe(const torch::Tensor &x) {
    auto predicted = model_->forward(x.to(device_)).argmax(1);
    counts_ += torch::bincount(predicted, {}, 3);
    // CHECK: :[[@LINE-1]]:13: warning: 'counts_' is on the CPU (placed by 'resetStatistics()') but 'torch::bincount(predicted, {}, 3)' is on 'device_' (output of 'model_'); '+=' needs all its tensor operands on one device [libtorch-mixed-device-operands]
    // CHECK: :[[@LINE-7]]:5: note: 'resetStatistics()' leaves 'counts_' on the CPU
  }

private:
  torch::Device device_;
  std::shared_ptr<Classifier> model_;
  torch::Tensor counts_;
};

// Through a helper: the constructor takes the weights from a function.
static torch::Tensor inverseFrequency(const std::vector<double> &counts) {
  auto c = torch::tensor(counts);
  return c.sum() / c;
}
class WeightedTrainer {
public:
  WeightedTrainer(torch::Device device, const std::vector<double> &counts)
      : device_(device), weights_(inverseFrequency(counts)) {}
  torch::Tensor loss(const torch::Tensor &logits, const torch::Tensor &y) {
    auto on_device = logits.to(device_);
    return F::nll_loss(on_device, y.to(device_),
                       F::NLLLossFuncOptions().weight(weights_));
    // CHECK: :[[@LINE-1]]:55: warning: 'weights_' is on the CPU (returned by 'inverseFrequency(counts)') but 'on_device' is on 'device_'; move it with 'weights_.to(device_)' as well
    // FIXED: F::NLLLossFuncOptions().weight(weights_.to(device_)));
  }

private:
  torch::Device device_;
  torch::Tensor weights_;
};

// The same read through a getter of the class: the getter's summary says
// "what the object holds", which inside the class is the field's value.
class Standardizer {
public:
  Standardizer(torch::Device device, int64_t n)
      : device_(device), mean_(torch::zeros({n})) {}
  torch::Tensor mean() const { return mean_; }
  torch::Tensor apply(const torch::Tensor &x) { return x.to(device_) - mean(); }
  // CHECK: :[[@LINE-1]]:70: warning: 'mean()' is on the CPU (returned by 'mean()') but 'x.to(device_)' is on 'device_' (moved with '.to(device_)'); '-' needs all its tensor operands on one device [libtorch-mixed-device-operands]

private:
  torch::Device device_;
  torch::Tensor mean_;
};

// A getter of a field some method sets from its argument: not known.
class RunningMean {
public:
  explicit RunningMean(int64_t n) : mean_(torch::zeros({n})) {}
  torch::Tensor mean() const { return mean_; }
  void update(const torch::Tensor &batch) { mean_ = batch.mean(0); }
  torch::Tensor shifted() { return mean() + torch::ones({4}); }

private:
  torch::Tensor mean_;
};

// Not findings: weights moved in the constructor; weights another method
// moves (on some calls here, on others there: not known); a public field
// anyone may assign; a method only declared here, which may assign it.
class MovedTrainer {
public:
  explicit MovedTrainer(torch::Device device)
      : device_(device), weights_(torch::tensor({1.0, 2.0, 5.0}).to(device)) {}
  torch::Tensor loss(const torch::Tensor &logits, const torch::Tensor &y) {
    return F::cross_entropy(logits.to(device_), y.to(device_),
                            F::CrossEntropyFuncOptions().weight(weights_));
  }

private:
  torch::Device device_;
  torch::Tensor weights_;
};

class LaterMoved {
public:
  explicit LaterMoved(torch::Device device)
      : device_(device), weights_(torch::ones({3})) {}
  void prepare() { weights_ = weights_.to(device_); }
  torch::Tensor scaled(const torch::Tensor &x) { return x.to(device_) * weights_; }

private:
  torch::Device device_;
  torch::Tensor weights_;
};

class PublicWeights {
public:
  explicit PublicWeights(torch::Device device) : device(device), weights(torch::ones({3})) {}
  torch::Tensor scaled(const torch::Tensor &x) { return x.to(device) * weights; }
  torch::Device device;
  torch::Tensor weights;
};

class DefinedElsewhere {
public:
  explicit DefinedElsewhere(torch::Device device)
      : device_(device), weights_(torch::ones({3})) {}
  void moveWeights();
  torch::Tensor scaled(const torch::Tensor &x) { return x.to(device_) * weights_; }

private:
  torch::Device device_;
  torch::Tensor weights_;
};
