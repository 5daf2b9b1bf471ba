// Binary classifier on synthetic two-moons-like data. The epoch loss is
// accumulated as a tensor (epoch_loss += loss), which keeps every
// iteration's autograd graph alive until the end of the epoch.
#include <torch/torch.h>

#include <cmath>
#include <iostream>

class MoonsDataset : public torch::data::datasets::Dataset<MoonsDataset> {
 public:
  explicit MoonsDataset(int64_t n) {
    auto t = torch::rand({n}) * M_PI;
    auto label = torch::randint(0, 2, {n}, torch::kLong);
    auto lf = label.to(torch::kFloat);
    auto x0 = torch::cos(t) + lf * 1.0;
    auto x1 = torch::sin(t) * (1 - 2 * lf) + lf * 0.5;
    points_ = torch::stack({x0, x1}, 1) + 0.1 * torch::randn({n, 2});
    labels_ = label;
  }

  torch::data::Example<> get(size_t index) override {
    return {points_[index], labels_[index]};
  }

  torch::optional<size_t> size() const override { return points_.size(0); }

 private:
  torch::Tensor points_, labels_;
};

struct MoonNet : torch::nn::Module {
  torch::nn::Linear l1{nullptr}, l2{nullptr}, l3{nullptr};

  MoonNet() {
    l1 = register_module("l1", torch::nn::Linear(2, 32));
    l2 = register_module("l2", torch::nn::Linear(32, 32));
    l3 = register_module("l3", torch::nn::Linear(32, 2));
  }

  torch::Tensor forward(torch::Tensor x) {
    x = torch::tanh(l1(x));
    x = torch::tanh(l2(x));
    return l3(x);
  }
};

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA)
                                                     : torch::Device(torch::kCPU);

  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      MoonsDataset(2000).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(50));

  auto model = std::make_shared<MoonNet>();
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));

  for (int epoch = 1; epoch <= 20; ++epoch) {
    torch::Tensor epoch_loss = torch::zeros({1}, device);
    int num_batches = 0;
    for (auto& batch : *loader) {
      auto inputs = batch.data.to(device);
      auto labels = batch.target.to(device);

      optimizer.zero_grad();
      auto logits = model->forward(inputs);
      auto loss = torch::nn::functional::cross_entropy(logits, labels);
      loss.backward();
      optimizer.step();

      epoch_loss += loss; // torchtidy-expect: libtorch-graph-retaining-accumulation
      ++num_batches;
    }
    if (epoch % 5 == 0) {
      std::cout << "epoch " << epoch << " loss "
                << epoch_loss.item<float>() / num_batches << std::endl;
    }
  }

  // Final accuracy over a fresh sample.
  torch::NoGradGuard no_grad;
  model->eval();
  auto test_loader = torch::data::make_data_loader(
      MoonsDataset(1000).map(torch::data::transforms::Stack<>()), /*batch_size=*/250);
  double correct = 0.0, total = 0.0;
  for (const auto& batch : *test_loader) {
    auto inputs = batch.data.to(device);
    auto labels = batch.target.to(device);
    auto pred = model->forward(inputs).argmax(1);
    correct += pred.eq(labels).sum().item<double>(); // torchtidy-expect: libtorch-host-sync-in-loop
    total += labels.size(0);
  }
  std::cout << "test accuracy " << correct / total << std::endl;
  return 0;
}
