// Polynomial regression with an MLP on a synthetic dataset. Bug: the inputs and targets are
// moved to the device in the loop, but the model is never moved, so on a GPU its CPU weights
// meet CUDA inputs.
#include <torch/torch.h>

#include <cmath>
#include <iostream>

// y = 0.5 x^3 - 2 x + 1 + noise, x in [-3, 3].
class PolyDataset : public torch::data::datasets::Dataset<PolyDataset> {
 public:
  explicit PolyDataset(int64_t n) {
    x_ = torch::rand({n, 1}) * 6.0 - 3.0;
    y_ = 0.5 * x_.pow(3) - 2.0 * x_ + 1.0 + 0.1 * torch::randn({n, 1});
  }
  torch::data::Example<> get(size_t i) override { return {x_[i], y_[i]}; }
  torch::optional<size_t> size() const override { return x_.size(0); }

 private:
  torch::Tensor x_, y_;
};

int main(int argc, char* argv[]) {
  torch::Device device(torch::kCPU);
  if (argc > 1 && std::string(argv[1]) == "--gpu" && torch::cuda::is_available()) {
    device = torch::Device(torch::kCUDA);
  }

  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      PolyDataset(4096).map(torch::data::transforms::Stack<>()), 64);

  torch::nn::Sequential model(
      torch::nn::Linear(1, 64), torch::nn::Tanh(),
      torch::nn::Linear(64, 64), torch::nn::Tanh(),
      torch::nn::Linear(64, 1));
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));

  for (size_t epoch = 1; epoch <= 200; ++epoch) {
    double running_loss = 0.0;
    int64_t batches = 0;
    for (auto& batch : *loader) {
      auto input = batch.data.to(device);
      auto target = batch.target.to(device);
      optimizer.zero_grad();
      auto prediction = model->forward(input); // torchtidy-expect: libtorch-missing-target-migration
      auto loss = torch::mse_loss(prediction, target);
      loss.backward();
      optimizer.step();
      if (batches++ % 16 == 0) {
        running_loss += loss.item<double>();
      }
    }
    if (epoch % 20 == 0) {
      std::cout << "epoch " << epoch << " sampled mse " << running_loss / ((batches + 15) / 16) << std::endl;
    }
  }

  // Print a few predictions on the host.
  torch::NoGradGuard no_grad;
  auto grid = torch::linspace(-3.0, 3.0, 7).unsqueeze(1);
  auto fitted = model->forward(grid);
  for (int64_t i = 0; i < grid.size(0); ++i) {
    double x = grid[i].item<double>();
    std::cout << "f(" << x << ") = " << fitted[i].item<double>() << "  (true "
              << 0.5 * std::pow(x, 3) - 2.0 * x + 1.0 << ")" << std::endl;
  }
  torch::save(model, "poly_mlp.pt");
}
