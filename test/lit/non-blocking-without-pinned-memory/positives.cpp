// RUN: %check_lint %s --checks='-*,libtorch-non-blocking-without-pinned-memory' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

using HostTensor = torch::Tensor;
using Batch = torch::data::Example<>;

// The article's loop: C++ data-loader batches are never pinned.
void train(torch::nn::Linear model, torch::Device device) {
  auto dataset = torch::data::datasets::MNIST("./data")
                     .map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader(std::move(dataset), 64);
  model->to(device);
  for (auto &batch : *loader) {
    auto data = batch.data.to(device, /*non_blocking=*/true);
    // CHECK: :[[@LINE-1]]:28: warning: 'non_blocking' has no effect: 'batch.data' is in pageable host memory (it comes from the data-loader batch), so the copy to 'device' is synchronous; pin the source with .pin_memory() or drop non_blocking [libtorch-non-blocking-without-pinned-memory]
    // CHECK: :[[@LINE-2]]:23: note: 'batch.data' comes from the data-loader batch, on the CPU
    auto target = batch.target.to(device, true);
    // CHECK: :[[@LINE-1]]:32: warning: 'non_blocking' has no effect: 'batch.target' is in pageable host memory (it comes from the data-loader batch), so the copy to 'device' is synchronous
    auto loss = torch::nll_loss(model(data), target);
  }
}

// A vector of examples, through a const reference and a variable; the
// non_blocking flag is found by name in the (device, dtype, ...) overload.
void epoch(std::vector<Batch> &batches, torch::Device device) {
  for (const Batch &b : batches) {
    torch::Tensor data = b.data;
    auto moved = data.to(device, torch::kHalf, /*non_blocking=*/true);
    // CHECK: :[[@LINE-1]]:23: warning: 'non_blocking' has no effect: 'data' is in pageable host memory (it comes from the data-loader batch), so the copy to 'device' is synchronous; pin the source with .pin_memory() or drop non_blocking [libtorch-non-blocking-without-pinned-memory]
    // CHECK: :[[@LINE-3]]:28: note: 'b.data' comes from the data-loader batch, on the CPU
  }
}

// Factories, from_blob, literals and op results: all pageable.
void factories(torch::Device device, float *buffer) {
  torch::Tensor x = torch::randn({8, 4});
  auto a = x.to(device, true);
  // CHECK: :[[@LINE-1]]:14: warning: 'non_blocking' has no effect: 'x' is in pageable host memory (created by 'torch::randn' without a device), so the copy to 'device' is synchronous; pin the source with .pin_memory() or drop non_blocking [libtorch-non-blocking-without-pinned-memory]
  // CHECK: :[[@LINE-3]]:21: note: created here by 'torch::randn' on the CPU
  at::Tensor blob = torch::from_blob(buffer, {4});
  auto b = blob.to(device, /*non_blocking=*/true);
  // CHECK: :[[@LINE-1]]:17: warning: 'non_blocking' has no effect: 'blob' is in pageable host memory ('torch::from_blob' wraps host memory), so the copy to 'device' is synchronous; pin the source with .pin_memory() or drop non_blocking [libtorch-non-blocking-without-pinned-memory]
  // CHECK: :[[@LINE-3]]:21: note: created here by 'torch::from_blob' over host memory
  auto scaled = x * 2 + 1;
  auto c = scaled.to(torch::kCUDA, true);
  // CHECK: :[[@LINE-1]]:19: warning: 'non_blocking' has no effect: 'scaled' is in pageable host memory (created by 'torch::randn' without a device), so the copy to 'cuda' is synchronous
  const torch::Tensor &ref = x;
  auto d = ref.to(torch::Device("cuda:1"), true);
  // CHECK: :[[@LINE-1]]:16: warning: 'non_blocking' has no effect: 'ref' is in pageable host memory (created by 'torch::randn' without a device), so the copy to 'cuda:1' is synchronous
  HostTensor h = torch::ones({2});
  auto e = h.to(device, true);
  // CHECK: :[[@LINE-1]]:14: warning: 'non_blocking' has no effect: 'h' is in pageable host memory (created by 'torch::ones' without a device), so the copy to 'device' is synchronous
  auto f = torch::tensor({1, 2, 3}).to(device, true);
  // CHECK: :[[@LINE-1]]:37: warning: 'non_blocking' has no effect: 'torch::tensor({1, 2, 3})' is in pageable host memory (built from host values by 'torch::tensor'), so the copy to 'device' is synchronous
  // CHECK: :[[@LINE-2]]:12: note: created here by 'torch::tensor' from host values
  auto g = torch::empty({2}, torch::TensorOptions().pinned_memory(false))
               .to(device, true);
  // CHECK: :[[@LINE-1]]:17: warning: 'non_blocking' has no effect: 'torch::empty({2}, torch::TensorOptions().pinn...' is in pageable host memory (created by 'torch::empty' without a device), so the copy to 'device' is synchronous
}

// .to(other): the copy goes wherever 'other' is.
void like(torch::Device device) {
  auto weights = torch::zeros({4}, device);
  auto x = torch::rand({4});
  auto y = x.to(weights, true);
  // CHECK: :[[@LINE-1]]:14: warning: 'non_blocking' has no effect: 'x' is in pageable host memory (created by 'torch::rand' without a device), so the copy to 'device' is synchronous
}

// Pinned, then a new tensor computed from it: pageable again.
void repinned(torch::Device device) {
  auto pinned = torch::randn({4}).pin_memory();
  auto shifted = pinned + 1;
  auto s = shifted.to(device, true);
  // CHECK: :[[@LINE-1]]:20: warning: 'non_blocking' has no effect: 'shifted' is in pageable host memory
}

// Copied back from the device: a blocking .cpu() gives pageable memory.
void roundTrip(torch::Device device) {
  auto onDevice = torch::randn({4}, torch::kCUDA);
  auto back = onDevice.cpu();
  auto again = back.to(device, true);
  // CHECK: :[[@LINE-1]]:21: warning: 'non_blocking' has no effect: 'back' is in pageable host memory (copied back with '.cpu()'), so the copy to 'device' is synchronous
  // CHECK: :[[@LINE-3]]:24: note: 'onDevice' is copied to the CPU here with '.cpu()'
}

// A template: each instantiation is analysed, the site reported once.
template <typename T> void generic(torch::Device device) {
  auto x = torch::ones({2}) * T(2);
  auto y = x.to(device, true);
  // CHECK: :[[@LINE-1]]:14: warning: 'non_blocking' has no effect: 'x' is in pageable host memory (created by 'torch::ones' without a device)
}
template void generic<float>(torch::Device);
template void generic<double>(torch::Device);

// Through helpers of this file: what they return is what they computed.
torch::Tensor make() { return torch::randn({4}); }
torch::Tensor pass(const torch::Tensor &x) { return x; }
void throughHelpers(std::vector<Batch> &loader, torch::Device device) {
  auto made = make().to(device, true);
  // CHECK: :[[@LINE-1]]:22: warning: 'non_blocking' has no effect: 'make()' is in pageable host memory (returned by 'make()'), so the copy to 'device' is synchronous
  for (auto &batch : loader)
    auto data = pass(batch.data).to(device, true);
  // CHECK: :[[@LINE-1]]:34: warning: 'non_blocking' has no effect: 'pass(batch.data)' is in pageable host memory (it comes from the data-loader batch), so the copy to 'device' is synchronous
}
