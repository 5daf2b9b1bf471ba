// Calls into functions defined in the same file go through a summary of the
// callee: where its result is in terms of its arguments, which reference
// parameters it moves, and whether it moves a module passed in (modules are
// shared handles, so the caller's model moves too).
// RUN: %check_lint %s --checks='%bug_checks' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

using Batch = std::vector<torch::data::Example<>>;

// The result is where the argument is.
torch::Tensor normalize(const torch::Tensor &x) { return (x - 0.5) / 0.25; }
// The result is on the device the caller passes.
at::Tensor onDevice(const at::Tensor &x, torch::Device d) { return x.to(d); }
// Moves the caller's tensors.
void moveBatch(torch::Tensor &data, torch::Tensor &target, torch::Device d) {
  data = data.to(d);
  target = target.to(d);
}
// Moves only its own copy of the handle... which is the caller's module.
void place(torch::nn::Linear model, torch::Device d) { model->to(d); }
// A host constant.
torch::Tensor classWeights() { return torch::tensor({1.0, 2.0, 0.5}); }
torch::nn::Linear build(torch::Device d) {
  torch::nn::Linear m(4, 2);
  m->to(d);
  return m;
}
torch::Tensor lossOf(const torch::Tensor &out, const torch::Tensor &y) {
  return torch::mse_loss(out, y);
}
// Helpers calling helpers.
torch::Tensor prepare(const torch::Tensor &x, torch::Device d) {
  return onDevice(normalize(x), d);
}

void placedByHelper(Batch &loader, torch::Device device) {
  torch::nn::Linear model(4, 2);
  place(model, device);
  for (auto &batch : loader) {
    auto in = normalize(batch.data);
    auto out = model(in);
    // CHECK: :[[@LINE-1]]:22: warning: input 'in' of 'model' is on the CPU (it comes from the data-loader batch) but the module is on 'device'; move it with 'in.to(device)' [libtorch-missing-target-migration]
    // CHECK: :[[@LINE-3]]:31: note: 'batch.data' comes from the data-loader batch, on the CPU
    // CHECK: :[[@LINE-6]]:3: note: 'place(model, device)' leaves 'model' on 'device'
    // CHECK: :21:63: note: 'model' is moved to 'd' here with '.to(d)'
  }
}

void builtByHelper(Batch &loader, torch::Device device) {
  auto model = build(device);
  torch::Tensor total = torch::zeros({});
  for (auto &batch : loader) {
    auto data = batch.data, target = batch.target;
    moveBatch(data, target, device);
    auto out = model(data);
    auto loss = lossOf(out, target);
    total += loss;
    // CHECK: :[[@LINE-1]]:11: warning: 'total' keeps 'loss', which carries autograd history, across loop iterations; {{.*}} [libtorch-graph-retaining-accumulation]
    auto weighted = out * classWeights();
    // CHECK: :[[@LINE-1]]:25: warning: 'classWeights()' is on the CPU (returned by 'classWeights()') but 'out' is on 'device' (output of 'model'); '*' needs all its tensor operands on one device [libtorch-mixed-device-operands]
    // CHECK: :[[@LINE-2]]:27: note: 'classWeights()' returns it on the CPU
    // CHECK: :23:39: note: created here by 'torch::tensor' from host values
    auto fine = out * onDevice(classWeights(), device);
    auto alsoFine = model(prepare(batch.data, device));
  }
}

// Negatives: a helper that moves a copy, an unknown (declared-only) helper,
// a virtual method, recursion.
void moveCopy(torch::Tensor data, torch::Device d) { data = data.to(d); }
void opaque(torch::Tensor &data);
struct Mover {
  virtual void move(torch::Tensor &data, torch::Device d) {}
};
torch::Tensor recurse(const torch::Tensor &x, int n) {
  return n == 0 ? x : recurse(x * 2, n - 1);
}

void negatives(Batch &loader, torch::Device device, Mover &mover) {
  auto model = build(device);
  for (auto &batch : loader) {
    auto a = batch.data;
    moveCopy(a, device);
    auto b = batch.data;
    opaque(b);
    model(b);
    auto c = batch.data;
    mover.move(c, device);
    model(c);
    model(recurse(batch.data.to(device), 3));
  }
}

void copiedStaysBehind(Batch &loader, torch::Device device) {
  auto model = build(device);
  for (auto &batch : loader) {
    auto a = batch.data;
    moveCopy(a, device);
    model(a);
    // CHECK: :[[@LINE-1]]:11: warning: input 'a' of 'model' is on the CPU (it comes from the data-loader batch) but the module is on 'device'; move it with 'a.to(device)' [libtorch-missing-target-migration]
  }
}
