// A helper's parameters are what its callers pass, when its callers are all
// in the file: a mask the helper builds on the CPU meets the GPU tensor every
// caller passes. The finding is in the helper, once however many callers,
// with a note at the call that supplied the device. Shaped like the dropout
// layers of public D2L ports (`torch::rand(X.sizes())` against X).
// RUN: %check_lint %s --checks='%bug_checks' -- %torch_flags -I %S/Inputs \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>
#include <functional>
#include "shared-layers.h"

// The shape: the mask is drawn on the CPU, X comes from the callers on the
// device.
torch::Tensor dropout_layer(torch::Tensor X, double dropout) {
  if (dropout == 1.0)
    return torch::zeros_like(X);
  auto mask = (torch::rand(X.sizes()) > dropout).to(torch::kFloat32);
  return mask * X / (1.0 - dropout);
  // CHECK: :[[@LINE-1]]:15: warning: 'mask' is on the CPU (created by 'torch::rand' without a device) but 'X' is on 'device' (passed by 'forward_train'); '*' needs all its tensor operands on one device [libtorch-mixed-device-operands]
  // CHECK: :[[@LINE-3]]:16: note: created here by 'torch::rand' on the CPU
  // CHECK: caller-context.cpp:[[#FORWARD_TRAIN:]]:24: note: 'X' is on 'device' here: passed by 'forward_train'
  // CHECK: caller-context.cpp:[[#FORWARD_TRAIN]]:24: note: 'hidden(fc, X)' returns it on 'device'
}

// One step removed: the mask is reshaped before it meets X, and X reaches
// the helper through another helper.
torch::Tensor channel_dropout(torch::Tensor X, double p) {
  auto keep = torch::bernoulli(torch::full({X.size(1)}, 1.0 - p));
  return X * keep.view({1, -1}).expand_as(X);
  // `expand_as(X)` reads X's shape, not its data: the mix is the `*`.
  // CHECK: :[[@LINE-2]]:12: warning: 'keep.view({1, -1}).expand_as(X)' is on the CPU (created by 'torch::full' without a device) but 'X' is on 'device' (passed by 'hidden'); '*' needs all its tensor operands on one device [libtorch-mixed-device-operands]
  // CHECK: :[[@LINE-4]]:32: note: created here by 'torch::full' on the CPU
  // CHECK: :[[@LINE+3]]:26: note: 'X' is on 'device' here: passed by 'hidden'
}
torch::Tensor hidden(torch::nn::Linear &fc, torch::Tensor H) {
  return channel_dropout(torch::relu(fc->forward(H)), 0.5);
}
torch::Tensor forward_train(torch::nn::Linear &fc, torch::Tensor X) {
  return dropout_layer(hidden(fc, X), 0.2);
}

// Through a helper: the mask comes from a helper that builds it on the host.
torch::Tensor make_mask(at::IntArrayRef sizes, double p) {
  return (torch::rand(sizes) > p).to(torch::kFloat32);
}
torch::Tensor masked(torch::Tensor X, double p) {
  return X * make_mask(X.sizes(), p);
  // CHECK: :[[@LINE-1]]:12: warning: 'make_mask(X.sizes(), p)' is on the CPU (returned by 'make_mask(X.sizes(), p)') but 'X' is on 'cuda' (passed by 'evaluate'); '*' needs all its tensor operands on one device [libtorch-mixed-device-operands]
  // CHECK: :[[@LINE-2]]:14: note: 'make_mask(X.sizes(), p)' returns it on the CPU
  // CHECK: caller-context.cpp:{{[0-9]+}}:11: note: created here by 'torch::rand' on the CPU
  // CHECK: caller-context.cpp:[[#EVALUATE:]]:17: note: 'X' is on 'cuda' here: passed by 'evaluate'
  // CHECK: caller-context.cpp:[[#EVALUATE-1]]:18: note: 'batch' is moved to 'cuda' here with '.to(torch::kCUDA)'
}

// A target the helper builds on the host, against a prediction its caller
// moved: moved, in the helper's own names, after the prediction's device.
torch::Tensor nll_of(torch::Tensor pred) {
  auto target = torch::tensor({1, 0, 1}, torch::kLong);
  return torch::nll_loss(pred, target);
  // CHECK: :[[@LINE-1]]:32: warning: 'target' is on the CPU (built from host values by 'torch::tensor') but 'pred' is on 'device'; move it with 'target.to(pred.device())' as well [libtorch-missing-target-migration]
  // CHECK: caller-context.cpp:[[#NLL:]]:{{[0-9]+}}: note: 'pred' is on 'device' here: passed by 'main'
}

// Negatives. The mask made where X is; a helper every caller passes host
// tensors; one whose address is taken (any code may call it); one another
// file may call (declared in a header); one a caller passes what nobody
// knows.
torch::Tensor dropout_like(torch::Tensor X, double p) {
  auto mask = (torch::rand(X.sizes(), X.options()) > p).to(X.dtype());
  return mask * X + (torch::rand_like(X) > p) * X;
}
torch::Tensor evaluate(torch::Tensor batch) {
  auto X = batch.to(torch::kCUDA);
  return masked(X, 0.1) + dropout_like(X, 0.1);
}
torch::Tensor host_dropout(torch::Tensor X, double p) {
  return X * (torch::rand(X.sizes()) > p);
}
torch::Tensor callback_dropout(torch::Tensor X, double p) {
  return X * (torch::rand(X.sizes()) > p);
}
torch::Tensor shared_dropout(torch::Tensor X, double p) {
  return X * (torch::rand(X.sizes()) > p);
}
torch::Tensor opaque_dropout(torch::Tensor X, double p) {
  return X * (torch::rand(X.sizes()) > p);
}
torch::Tensor load_features();

// More callers nobody can list: a template (any instantiation may call),
// a recursion (the chain of callers comes back), a call in dead code.
torch::Tensor templated_dropout(torch::Tensor X, double p) {
  return X * (torch::rand(X.sizes()) > p);
}
template <typename T> torch::Tensor apply_layer(T X) {
  return templated_dropout(X, 0.5);
}
torch::Tensor recursive_dropout(torch::Tensor X, int depth) {
  if (depth == 0)
    return X;
  return recursive_dropout(X * (torch::rand(X.sizes()) > 0.5), depth - 1);
}

// A lambda is a caller like any other: its body is analysed on its own.
torch::Tensor lambda_dropout(torch::Tensor X, double p) {
  return X * (torch::rand(X.sizes()) > p);
  // CHECK: :[[@LINE-1]]:12: warning: '(torch::rand(X.sizes()) > p)' is on the CPU (created by 'torch::rand' without a device) but 'X' is on 'cuda' (passed by 'a lambda'); '*' needs all its tensor operands on one device [libtorch-mixed-device-operands]
}
void with_lambda() {
  auto layer = [](torch::Tensor X) {
    return lambda_dropout(X.to(torch::kCUDA), 0.5);
  };
  layer(torch::ones({2}));
}

// A module handle of the user's (TORCH_MODULE) passed by reference takes
// its callers' context like any module: it is no object of a plain class.
struct HeadImpl : torch::nn::Module {
  HeadImpl() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Head);
torch::Tensor shifted_scores(Head &head, torch::Tensor X) {
  auto scores = head->forward(X.to(head->fc->weight.device()));
  return scores + torch::ones({2});
  // CHECK: :[[@LINE-1]]:17: warning: 'torch::ones({2})' is on the CPU (created by 'torch::ones' without a device) but 'scores' is on 'device' (output of 'head'); '+' needs all its tensor operands on one device [libtorch-mixed-device-operands]
  // CHECK: caller-context.cpp:[[#HEAD_CALL:]]:27: note: 'head' is on 'device' here: passed by 'main'
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  torch::nn::Linear fc(4, 4);
  fc->to(device);
  auto X = torch::randn({8, 4}).to(device);
  auto Y = forward_train(fc, X);
  auto Z = evaluate(torch::randn({8, 4}));
  auto host = host_dropout(torch::randn({8, 4}), 0.5);
  std::function<torch::Tensor(torch::Tensor, double)> layer = callback_dropout;
  auto W = layer(X, 0.5);
  auto S = shared_dropout(X, 0.5);
  auto O = opaque_dropout(load_features(), 0.5);
  auto L = nll_of(torch::log_softmax(fc->forward(X), 1));
  auto T = apply_layer(X);
  auto R = recursive_dropout(X, 3);
  Head head;
  head->to(device);
  auto H = shifted_scores(head, X);
}
