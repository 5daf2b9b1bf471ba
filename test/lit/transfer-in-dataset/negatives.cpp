// RUN: %check_lint %s --checks='-*,libtorch-transfer-in-dataset' -- %torch_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='warning:'
// CHECK-NOT: warning:
#include <torch/torch.h>

// Loading stays on the host; conversions that keep the device are fine.
class Tabular : public torch::data::datasets::Dataset<Tabular> {
public:
  torch::data::Example<> get(size_t index) override {
    torch::Tensor row = torch::rand({8}).to(torch::kFloat);
    return {row.cpu(), torch::tensor(static_cast<int64_t>(index)).to(torch::kCPU)};
  }
  torch::optional<size_t> size() const override { return 10; }
  // Not what the loader calls per example.
  torch::Tensor all(torch::Device device) { return torch::rand({10, 8}).to(device); }
};

// Same method name on a class that is not a dataset.
struct Cache {
  torch::Tensor get(size_t i, torch::Device device) { return torch::ones({1}).to(device); }
};

// The training loop is the right place to move batches.
void train(torch::Device device) {
  auto loader = torch::data::make_data_loader(
      Tabular().map(torch::data::transforms::Stack<>()), 4);
  for (auto &batch : *loader)
    auto data = batch.data.to(device);
}

// Helpers that move only where their caller says, called to stay on the
// host; helpers that convert a dtype or copy back to the host; a helper
// defined in another file, which this file cannot see.
static torch::Tensor toDevice(torch::Tensor t, torch::Device device) {
  return t.to(device);
}
static torch::Tensor asFloat(torch::Tensor t) { return t.to(torch::kFloat); }
static torch::Tensor toHost(torch::Tensor t) { return t.cpu(); }
torch::Tensor loadElsewhere(int64_t index, torch::Device device);

class Frames : public torch::data::datasets::Dataset<Frames> {
public:
  torch::data::Example<> get(size_t index) override {
    torch::Device host(torch::kCPU);
    auto frame = toDevice(torch::rand({3}), host);
    auto label = toDevice(torch::tensor(1), torch::kCPU);
    auto other = loadElsewhere(index, torch::kCUDA);
    return {asFloat(frame) + toHost(other), label};
  }
  torch::optional<size_t> size() const override { return 10; }
};

// A transform's own tensor sent where the example it was given already is
// (a blur kernel, shaped like a public captioning tutorial's GaussBlur2d):
// on an example on the host, a no-op; the example's data stays put. By its
// device, by its options, by the tensor itself.
struct GaussBlur : torch::data::transforms::TensorTransform<torch::Tensor> {
  torch::Tensor operator()(torch::Tensor input) override {
    auto weight = kernel.expand({input.size(-3), -1, -1, -1}).to(input.device());
    auto bias = torch::zeros({input.size(-3)}).to(input.options());
    auto scale = torch::ones({1}).to(input);
    return torch::conv2d(input.unsqueeze(0), weight, bias, 1, 1, 1, input.size(-3)) * scale;
  }
  torch::Tensor kernel = torch::rand({1, 1, 3, 3});
};
