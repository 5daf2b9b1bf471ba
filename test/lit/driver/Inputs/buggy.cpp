#include <torch/torch.h>

void train(std::vector<torch::data::Example<>> &loader, torch::Device device) {
  torch::nn::Linear model(4, 2);
  model->to(device);
  torch::Tensor total = torch::zeros({});
  for (auto &batch : loader) {
    auto output = model(batch.data.to(device));
    auto loss = torch::mse_loss(output, batch.target);
    loss.backward();
    total += loss;
  }
  auto x = torch::ones({2});
  x.to(device);
  auto y = x.cuda() * torch::ones({2}); // NOLINT(libtorch-mixed-device-operands)
}
