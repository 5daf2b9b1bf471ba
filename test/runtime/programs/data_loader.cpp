// A data loader with two worker threads whose dataset runs ops (a sync per
// example) while the main thread runs ops of its own: the counts must come
// out exact, 200 example syncs and 50 batch syncs, whatever the
// interleaving.
#include <torch/torch.h>

#include <iostream>

struct Squares : torch::data::datasets::Dataset<Squares> {
  torch::data::Example<> get(size_t index) override {
    torch::Tensor row = torch::full({4}, static_cast<double>(index));
    double norm = (row * row).sum().item<double>(); // in a worker thread
    return {row / (1 + norm), torch::tensor(static_cast<int64_t>(index))};
  }
  torch::optional<size_t> size() const override { return 200; }
};

int main() {
  auto loader = torch::data::make_data_loader(
      Squares().map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(4).workers(2));
  double total = 0;
  int batches = 0;
  for (auto &batch : *loader) {
    total += batch.data.sum().item<double>(); // in the main thread
    ++batches;
  }
  std::cout << "batches " << batches << " total " << total << "\n";
  return 0;
}
