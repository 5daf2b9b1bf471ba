// Custom dataset with custom host-side transforms (a TensorTransform that
// normalises per channel and a Lambda on the whole example), stacked into
// batches, pinned, and copied to the device inside the training loop.
#include <torch/torch.h>

#include <iostream>
#include <vector>

// Synthetic "sensor" dataset: each sample is a 4-channel 16x16 image whose
// label depends on the mean of the first channel.
class SensorDataset : public torch::data::datasets::Dataset<SensorDataset> {
 public:
  explicit SensorDataset(int64_t n) {
    samples_ = torch::rand({n, 4, 16, 16}) * 255.0;
    labels_ = (samples_.select(1, 0).mean({1, 2}) > 127.5).to(torch::kLong);
  }

  torch::data::Example<> get(size_t index) override {
    return {samples_[index].clone(), labels_[index].clone()};
  }

  torch::optional<size_t> size() const override {
    return samples_.size(0);
  }

 private:
  torch::Tensor samples_, labels_;
};

// Normalises a CxHxW image on the host with per-channel statistics.
struct ChannelNormalize : public torch::data::transforms::TensorTransform<torch::Tensor> {
  ChannelNormalize(std::vector<double> mean, std::vector<double> stddev)
      : mean_(torch::tensor(mean).view({-1, 1, 1})),
        stddev_(torch::tensor(stddev).view({-1, 1, 1})) {}

  torch::Tensor operator()(torch::Tensor input) override {
    return (input / 255.0 - mean_) / stddev_;
  }

  torch::Tensor mean_, stddev_;
};

struct Classifier : torch::nn::Module {
  Classifier() {
    features = register_module(
        "features",
        torch::nn::Sequential(
            torch::nn::Conv2d(torch::nn::Conv2dOptions(4, 16, 3).padding(1)),
            torch::nn::ReLU(),
            torch::nn::MaxPool2d(2),
            torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 32, 3).padding(1)),
            torch::nn::ReLU(),
            torch::nn::AdaptiveAvgPool2d(1)));
    head = register_module("head", torch::nn::Linear(32, 2));
  }

  torch::Tensor forward(const torch::Tensor& x) {
    return head->forward(features->forward(x).flatten(1));
  }

  torch::nn::Sequential features{nullptr};
  torch::nn::Linear head{nullptr};
};

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);

  using Example = torch::data::Example<>;
  auto flip = torch::data::transforms::Lambda<Example>([](Example ex) {
    // Random horizontal flip, done on the host before batching.
    if (torch::rand({1}).item<float>() < 0.5f) {
      ex.data = ex.data.flip({2});
    }
    return ex;
  });

  auto dataset = SensorDataset(4096)
                     .map(ChannelNormalize({0.5, 0.5, 0.5, 0.5}, {0.25, 0.25, 0.25, 0.25}))
                     .map(flip)
                     .map(torch::data::transforms::Stack<>());

  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      std::move(dataset), torch::data::DataLoaderOptions().batch_size(64).workers(2));

  auto model = std::make_shared<Classifier>();
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(),
                              torch::optim::SGDOptions(0.05).momentum(0.9));

  for (int epoch = 0; epoch < 4; ++epoch) {
    double epoch_loss = 0.0;
    size_t batch_idx = 0;
    for (auto& batch : *loader) {
      torch::Tensor inputs;
      if (device.is_cuda()) {
        // Page-locked staging buffer so the host-to-device copy is async.
        auto pinned = batch.data.pin_memory();
        inputs = pinned.to(device, /*non_blocking=*/true);
      } else {
        inputs = batch.data.to(device);
      }
      auto targets = batch.target.to(device);

      optimizer.zero_grad();
      auto logits = model->forward(inputs);
      auto loss = torch::cross_entropy_loss(logits, targets);
      loss.backward();
      optimizer.step();

      epoch_loss += loss.item<double>(); // torchtidy-expect: libtorch-host-sync-in-loop
      ++batch_idx;
    }
    std::cout << "epoch " << epoch << " mean loss " << epoch_loss / batch_idx
              << std::endl;
  }
  return 0;
}
