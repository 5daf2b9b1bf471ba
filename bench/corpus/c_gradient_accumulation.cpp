// Gradient accumulation: four micro-batches of 16 emulate an effective batch of 64
// for a small regression MLP; the optimizer steps once every four micro-batches.
#include <torch/torch.h>

#include <iomanip>
#include <iostream>

class RegressionData : public torch::data::datasets::Dataset<RegressionData> {
 public:
  RegressionData(int64_t n, int64_t features) {
    inputs_ = torch::randn({n, features});
    auto w = torch::linspace(-1.0, 1.0, features).unsqueeze(1);
    targets_ = torch::sin(inputs_.matmul(w)) + 0.05 * torch::randn({n, 1});
  }

  torch::data::Example<> get(size_t i) override { return {inputs_[i], targets_[i]}; }
  torch::optional<size_t> size() const override { return inputs_.size(0); }

 private:
  torch::Tensor inputs_, targets_;
};

int main() {
  torch::manual_seed(7);
  torch::Device device = torch::kCPU;
  if (torch::cuda::is_available()) {
    device = torch::kCUDA;
  }

  const int64_t features = 16;
  const int accumulation_steps = 4;
  const int log_every_updates = 25;

  torch::nn::Sequential model(
      torch::nn::Linear(features, 64),
      torch::nn::ReLU(),
      torch::nn::Linear(64, 64),
      torch::nn::ReLU(),
      torch::nn::Linear(64, 1));
  model->to(device);

  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));

  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      RegressionData(8192, features).map(torch::data::transforms::Stack<>()),
      /*batch_size=*/16);

  for (int epoch = 1; epoch <= 5; ++epoch) {
    model->train();
    optimizer.zero_grad();
    int64_t micro_step = 0;
    int64_t updates = 0;
    torch::Tensor epoch_loss = torch::zeros({}, torch::TensorOptions().device(device));

    for (auto& batch : *loader) {
      auto data = batch.data.to(device);
      auto target = batch.target.to(device);

      auto output = model->forward(data);
      auto loss = torch::mse_loss(output, target);
      (loss / accumulation_steps).backward();
      epoch_loss += loss.detach();
      ++micro_step;

      if (micro_step % accumulation_steps == 0) {
        optimizer.step();
        optimizer.zero_grad();
        ++updates;
        if (updates % log_every_updates == 0) {
          std::cout << "epoch " << epoch << " update " << updates
                    << " micro-batch loss " << std::fixed << std::setprecision(5)
                    << loss.item<float>() << std::endl;
        }
      }
    }
    // Flush a trailing partial accumulation window.
    if (micro_step % accumulation_steps != 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
    std::cout << "epoch " << epoch << " mean loss "
              << epoch_loss.item<float>() / static_cast<float>(micro_step) << std::endl;
  }

  torch::save(model, "accum_regressor.pt");
  return 0;
}
