// A tensor handed to an op through its options (`.weight(w)`,
// `.pos_weight(p)`, `.bias(b)`) is one of the op's operands: a class weight
// left on the CPU while the logits are on the GPU is the same device mix as
// passing it directly.
// RUN: %check_lint %s --checks='-*,libtorch-mixed-device-operands' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

namespace F = torch::nn::functional;

// The shape: a classifier's weighted cross-entropy, as public training code
// writes it for an imbalanced data set.
void weightedLoss(torch::nn::Linear net, torch::Tensor x, torch::Tensor y,
                  torch::Device device) {
  net->to(device);
  auto class_weights = torch::tensor({1.0, 4.0});
  auto logits = net->forward(x.to(device));
  auto loss = F::cross_entropy(logits, y.to(device),
                               F::CrossEntropyFuncOptions().weight(class_weights));
  // CHECK: :[[@LINE-2]]:15: warning: 'class_weights' is on the CPU (built from host values by 'torch::tensor') but 'logits' is on 'device' (output of 'net'); 'F::cross_entropy' needs all its tensor operands on one device [libtorch-mixed-device-operands]
}

// One step removed: another loss, the weight further down the chain.
void positiveWeight(torch::Tensor scores, torch::Tensor labels) {
  auto on_gpu = scores.cuda();
  auto pos_weight = torch::full({1}, 3.0);
  auto loss = F::binary_cross_entropy_with_logits(
      on_gpu, labels.cuda(),
      F::BinaryCrossEntropyWithLogitsFuncOptions().reduction(torch::kMean).pos_weight(pos_weight));
  // CHECK: :[[@LINE-3]]:15: warning: 'pos_weight' is on the CPU {{.*}} but 'on_gpu' is on 'cuda' {{.*}}'F::binary_cross_entropy_with_logits' needs all its tensor operands on one device
}

// Through a helper: the weights come from a function that builds them on
// the host.
torch::Tensor inverseFrequency(const std::vector<int64_t> &counts) {
  auto c = torch::tensor(counts, torch::kFloat);
  return c.sum() / c;
}
void throughHelper(torch::Tensor logits, torch::Tensor y,
                   const std::vector<int64_t> &counts) {
  auto device_logits = logits.to(torch::kCUDA);
  auto loss = F::nll_loss(device_logits, y.to(torch::kCUDA),
                          F::NLLLossFuncOptions().weight(inverseFrequency(counts)));
  // CHECK: :[[@LINE-2]]:15: warning: 'inverseFrequency(counts)' is on the CPU {{.*}}'F::nll_loss' needs all its tensor operands on one device
}

// Options held in a variable, as training code builds them once before its
// loop: the options hold the weight wherever it was given.
void optionsInVariable(torch::nn::Linear net, torch::Tensor x, torch::Tensor y,
                       torch::Device device) {
  net->to(device);
  auto class_weights = torch::tensor({1.0, 4.0});
  auto options = F::CrossEntropyFuncOptions().weight(class_weights);
  for (int step = 0; step < 100; ++step) {
    auto logits = net->forward(x.to(device));
    auto loss = F::cross_entropy(logits, y.to(device), options);
    // CHECK: :[[@LINE-1]]:17: warning: 'options' is on the CPU (it holds 'class_weights' as its weight) but 'logits' is on 'device' (output of 'net'); 'F::cross_entropy' needs all its tensor operands on one device [libtorch-mixed-device-operands]
    // CHECK: :[[@LINE-5]]:47: note: 'class_weights' is given as the weight here, on the CPU
    // CHECK: :[[@LINE-7]]:24: note: created here by 'torch::tensor' from host values
  }
}

// One step removed: declared first, given its weight by a setter statement.
void optionsBySetter(torch::Tensor log_probs, torch::Tensor y) {
  F::NLLLossFuncOptions options;
  options.weight(torch::ones({10})).ignore_index(-100);
  auto loss = F::nll_loss(log_probs.cuda(), y.cuda(), options);
  // CHECK: :[[@LINE-1]]:15: warning: 'options' is on the CPU (it holds 'torch::ones({10})' as its weight) but 'log_probs.cuda()' is on 'cuda'
  // CHECK: :[[@LINE-3]]:11: note: 'torch::ones({10})' is given as the weight here, on the CPU
}

// Through a helper: the loss is computed in a helper that takes the options
// from its only caller.
static torch::Tensor weightedLoss(torch::Tensor logits, torch::Tensor y,
                                  const F::CrossEntropyFuncOptions &options) {
  return F::cross_entropy(logits, y, options);
  // CHECK: :[[@LINE-1]]:10: warning: 'options' is on the CPU (passed by 'evaluate') but 'logits' is on 'cuda' (passed by 'evaluate'); 'F::cross_entropy' needs all its tensor operands on one device
  // CHECK: note: 'options' is on the CPU here: passed by 'evaluate'
  // CHECK: note: 'w' is given as the weight here, on the CPU
}
void evaluate(torch::Tensor x, torch::Tensor y) {
  auto w = torch::ones({3});
  auto loss = weightedLoss(x.cuda(), y.cuda(), F::CrossEntropyFuncOptions().weight(w));
}

// Weights moved with the logits, options that carry no tensor, and options
// built elsewhere (what they hold is not seen here): no finding.
void negatives(torch::Tensor logits, torch::Tensor y, torch::Device device,
               F::CrossEntropyFuncOptions built_elsewhere) {
  auto w = torch::tensor({1.0, 2.0});
  auto on_device = logits.to(device);
  auto a = F::cross_entropy(on_device, y.to(device),
                            F::CrossEntropyFuncOptions().weight(w.to(device)));
  auto b = F::cross_entropy(on_device, y.to(device),
                            F::CrossEntropyFuncOptions().ignore_index(-1));
  auto c = F::cross_entropy(on_device, y.to(device), built_elsewhere);
  auto cpu = F::cross_entropy(logits, y, F::CrossEntropyFuncOptions().weight(w));
  auto moved = F::CrossEntropyFuncOptions().weight(w.to(device));
  auto d = F::cross_entropy(on_device, y.to(device), moved);
  auto plain = F::CrossEntropyFuncOptions().label_smoothing(0.1);
  auto e = F::cross_entropy(on_device, y.to(device), plain);
  auto copied = built_elsewhere;
  auto f = F::cross_entropy(on_device, y.to(device), copied);
}
