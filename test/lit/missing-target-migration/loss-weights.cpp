// A loss module built from options that hold a tensor (a class weight, a
// positive weight) keeps it as a buffer where it was given. Called with
// logits on the GPU, it needs moving like any module with state; the advice
// is the module's own `to`, which moves the buffer. (As for a model left
// behind, no fix-it: where to move it once is the author's choice.)
// RUN: %check_lint %s --checks='-*,libtorch-missing-target-migration' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// With every bug-level check, each site is still reported once.
// RUN: %check_lint %s --checks='%bug_checks' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

// The shape: a weighted criterion for an imbalanced data set, as training
// code builds it next to the model.
void train(torch::nn::Linear net, torch::Tensor x, torch::Tensor y,
           torch::Device device) {
  net->to(device);
  auto class_weights = torch::tensor({1.0, 4.0});
  torch::nn::CrossEntropyLoss criterion(
      torch::nn::CrossEntropyLossOptions().weight(class_weights));
  auto logits = net->forward(x.to(device));
  auto loss = criterion(logits, y.to(device));
  // CHECK: :[[@LINE-1]]:15: warning: 'criterion' is on the CPU (it holds 'class_weights' as its weight) but its input 'logits' is on 'device'; move the module with 'criterion->to(device)' before calling it [libtorch-missing-target-migration]
  // CHECK: :[[@LINE-4]]:44: note: 'class_weights' is given as the weight here, on the CPU
  // CHECK: :[[@LINE-7]]:24: note: created here by 'torch::tensor' from host values
}

// One step removed: the options held in a variable, the module made with
// make_shared, the weight computed from counts.
void fromCounts(torch::nn::Linear net, torch::Tensor x, torch::Tensor y) {
  torch::Device device(torch::kCUDA);
  net->to(device);
  auto counts = torch::tensor({10.0, 20.0, 70.0});
  auto options = torch::nn::CrossEntropyLossOptions().weight(counts.sum() / counts);
  auto criterion = std::make_shared<torch::nn::CrossEntropyLossImpl>(options);
  auto loss = criterion->forward(net->forward(x.to(device)), y.to(device));
  // CHECK: :[[@LINE-1]]:15: warning: 'criterion' is on the CPU (it holds 'counts.sum() / counts' as its weight) but its input 'net->forward(x.to(device))' is on 'device'; move the module with 'criterion->to(device)' before calling it
}

// Through a helper: the options come from a function, and the criterion is
// called in a step function that takes it from its caller.
torch::nn::BCEWithLogitsLossOptions balancedOptions(double ratio) {
  return torch::nn::BCEWithLogitsLossOptions().pos_weight(torch::full({1}, ratio));
}
static torch::Tensor step(torch::nn::Linear net,
                          torch::nn::BCEWithLogitsLoss criterion,
                          torch::Tensor x, torch::Tensor y,
                          torch::Device device) {
  auto logits = net->forward(x.to(device));
  return criterion(logits, y.to(device));
  // CHECK: :[[@LINE-1]]:10: warning: 'criterion' is on the CPU (passed by 'fit') but its input 'logits' is on 'device'; move the module with 'criterion->to(device)' before calling it
  // CHECK: note: 'criterion' is on the CPU here: passed by 'fit'
  // CHECK: note: 'torch::full({1}, ratio)' is given as the pos_weight here, on the CPU
}
void fit(torch::nn::Linear net, torch::Tensor x, torch::Tensor y,
         torch::Device device) {
  net->to(device);
  torch::nn::BCEWithLogitsLoss criterion(balancedOptions(3.0));
  for (int epoch = 0; epoch < 10; ++epoch)
    step(net, criterion, x, y, device);
}

// Not a finding: the module moved with the model, the weight given on the
// device, options that hold no tensor, options whose tensors are not seen,
// and a model left on the host with its criterion.
void negatives(torch::nn::Linear net, torch::Tensor x, torch::Tensor y,
               torch::Device device,
               torch::nn::CrossEntropyLossOptions from_caller) {
  net->to(device);
  auto w = torch::tensor({1.0, 2.0});
  auto logits = net->forward(x.to(device));
  auto target = y.to(device);
  torch::nn::CrossEntropyLoss moved(torch::nn::CrossEntropyLossOptions().weight(w));
  moved->to(device);
  auto a = moved(logits, target);
  torch::nn::CrossEntropyLoss on_device(
      torch::nn::CrossEntropyLossOptions().weight(w.to(device)));
  auto b = on_device(logits, target);
  torch::nn::CrossEntropyLoss smoothed(
      torch::nn::CrossEntropyLossOptions().ignore_index(-1));
  auto c = smoothed(logits, target);
  torch::nn::CrossEntropyLoss unseen(from_caller);
  auto d = unseen(logits, target);
  torch::nn::Linear host_net(4, 2);
  torch::nn::CrossEntropyLoss host_loss(torch::nn::CrossEntropyLossOptions().weight(w));
  auto e = host_loss(host_net->forward(x), y);
}
