// Regression on tabular data with a custom Dataset that hands out samples
// already on the GPU: get() copies each single sample to the device, so
// every batch costs one tiny host-to-device copy per row.
#include <torch/torch.h>

#include <iostream>

class TabularDataset : public torch::data::datasets::Dataset<TabularDataset> {
 public:
  TabularDataset(torch::Tensor features, torch::Tensor targets, torch::Device device)
      : features_(std::move(features)), targets_(std::move(targets)), device_(device) {}

  torch::data::Example<> get(size_t index) override {
    auto sample = features_[index].to(device_); // torchtidy-expect: libtorch-transfer-in-dataset
    auto target = targets_[index].to(device_); // torchtidy-expect: libtorch-transfer-in-dataset
    return {sample, target};
  }

  torch::optional<size_t> size() const override { return features_.size(0); }

 private:
  torch::Tensor features_, targets_;
  torch::Device device_;
};

struct Regressor : torch::nn::Module {
  Regressor(int64_t in_features) {
    body = register_module("body", torch::nn::Sequential(
                                       torch::nn::Linear(in_features, 64),
                                       torch::nn::ReLU(),
                                       torch::nn::Dropout(0.1),
                                       torch::nn::Linear(64, 32),
                                       torch::nn::ReLU()));
    head = register_module("head", torch::nn::Linear(32, 1));
  }

  torch::Tensor forward(torch::Tensor x) {
    return head->forward(body->forward(x)).squeeze(-1);
  }

  torch::nn::Sequential body{nullptr};
  torch::nn::Linear head{nullptr};
};

int main() {
  torch::manual_seed(11);
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);

  const int64_t n = 10000, d = 12;
  auto x = torch::randn({n, d});
  auto w = torch::randn({d});
  auto y = x.matmul(w) + 0.5 * torch::sin(x.select(1, 0) * 3) + 0.05 * torch::randn({n});

  // Standardise the target on the host.
  auto y_mean = y.mean();
  auto y_std = y.std();
  y = (y - y_mean) / y_std;

  auto dataset = TabularDataset(x, y, device).map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      std::move(dataset), /*batch_size=*/256);

  Regressor model(d);
  model.to(device);
  torch::optim::AdamW optimizer(model.parameters(),
                                torch::optim::AdamWOptions(1e-3).weight_decay(1e-2));

  for (int epoch = 1; epoch <= 15; ++epoch) {
    model.train();
    double sum_loss = 0.0;
    int64_t batches = 0;
    for (auto& batch : *loader) {
      auto inputs = batch.data.to(device);
      auto targets = batch.target.to(device);

      optimizer.zero_grad();
      auto loss = torch::mse_loss(model.forward(inputs), targets);
      loss.backward();
      optimizer.step();

      sum_loss += loss.item<double>(); // torchtidy-expect: libtorch-host-sync-in-loop
      ++batches;
    }
    std::cout << "epoch " << epoch << " mse " << sum_loss / batches << std::endl;
  }

  // Predictions in original units for a few held-out points.
  torch::NoGradGuard no_grad;
  model.eval();
  auto probe = torch::randn({5, d});
  auto pred = model.forward(probe.to(device)).cpu() * y_std + y_mean;
  auto truth = probe.matmul(w) + 0.5 * torch::sin(probe.select(1, 0) * 3);
  std::cout << "pred:  " << pred << "\ntruth: " << truth << std::endl;
  return 0;
}
