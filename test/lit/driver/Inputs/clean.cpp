#include <torch/torch.h>

void train(std::vector<torch::data::Example<>> &loader, torch::Device device) {
  torch::nn::Linear model(4, 2);
  model->to(device);
  double total = 0;
  for (auto &batch : loader) {
    auto loss = torch::mse_loss(model(batch.data.to(device)), batch.target.to(device));
    loss.backward();
    total += loss.item<double>();
  }
}
