// RUN: %clang_tidy %s --checks='-*,libtorch-transfer-in-dataset' -- %torch_flags \
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
