// RUN: %check_lint %s --checks='-*,libtorch-non-blocking-without-pinned-memory' -- %torch_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='warning:'
// CHECK-NOT: warning:
#include <torch/torch.h>

// Pinned batches: what non_blocking needs.
void train(std::vector<torch::data::Example<>> &loader, torch::Device device) {
  for (auto &batch : loader) {
    auto data = batch.data.pin_memory().to(device, /*non_blocking=*/true);
    auto target = batch.target.pin_memory();
    auto moved = target.to(device, true);
    auto flat = target.view({-1}).to(device, true); // a view stays pinned
    batch.data = batch.data.pin_memory();
    auto again = batch.data.to(device, true);
  }
}

// Created in pinned memory.
void pinnedFactories(torch::Device device, float *buffer) {
  auto a = torch::empty({4}, torch::TensorOptions()
                                 .dtype(torch::kFloat)
                                 .pinned_memory(true))
               .to(device, true);
  const auto options = torch::TensorOptions().pinned_memory(true);
  torch::Tensor b = torch::randn({4}, options);
  auto c = b.to(device, true);
  auto d = torch::from_blob(buffer, {4}, options).to(device, true);
  auto e = at::_pin_memory(torch::ones({4})).to(device, true);
  auto f = torch::empty_like(b).to(device, true); // may follow b
}

// The flag is off, left at its default, or not a literal.
void blocking(torch::Device device, bool flag) {
  auto x = torch::randn({4});
  auto a = x.to(device, false);
  auto b = x.to(device);
  auto c = x.to(device, /*non_blocking=*/flag);
  auto d = x.cuda();
}

// Not a copy to a device: to the host, or a dtype conversion.
void staysOnHost(torch::Device device) {
  auto x = torch::randn({4});
  auto a = x.to(torch::kCPU, true);
  auto b = x.to(torch::Device("cpu"), true);
  auto c = x.to(torch::kFloat, true);
  auto d = x.to(torch::kHalf, /*non_blocking=*/true, /*copy=*/true);
  auto onDevice = torch::randn({4}, torch::kCUDA);
  auto e = onDevice.to(torch::kCPU, /*non_blocking=*/true);
}

// The source is already on the device.
void onDevice(torch::Device device) {
  auto x = torch::randn({4}, device);
  auto a = x.to(device, true);
  auto y = torch::randn({4}).to(torch::kCUDA);
  auto b = y.to(torch::Device("cuda:1"), true);
  // Copied back with non_blocking: newer LibTorch pins the result.
  auto back = y.to(torch::kCPU, true);
  auto c = back.to(device, true);
}

// Where the source is, or what memory it is in, is not known.
void unknown(torch::Tensor param, const torch::Tensor &other,
             torch::Device device, bool pin) {
  auto a = param.to(device, true);
  auto b = torch::randn({4}).to(other, true); // 'other' may be on the host
  auto options = torch::dtype(torch::kFloat);
  auto c = torch::randn({4}, options).to(device, true); // options may change
  auto maybe = pin ? torch::randn({4}).pin_memory() : torch::randn({4});
  auto d = maybe.to(device, true);
}

// A discarded result is libtorch-missing-target-migration's finding.
void discarded(torch::Device device) {
  auto x = torch::randn({4});
  x.to(device, true);
}

// Through a helper of this file: it returns what it was given, pinned.
torch::Tensor pass(const torch::Tensor &x) { return x; }
void throughHelper(std::vector<torch::data::Example<>> &loader,
                   torch::Device device) {
  for (auto &batch : loader)
    auto data = pass(batch.data.pin_memory()).to(device, true);
}
