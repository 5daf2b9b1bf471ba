// Trains a small MNIST classifier; the labels of each batch are never moved to
// the device the model is on. torchtidy reports it while the project builds
// (see CMakeLists.txt).
#include <torch/torch.h>

#include <iostream>

int main(int argc, char **argv) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  torch::nn::Linear model(784, 10);
  model->to(device);

  auto dataset = torch::data::datasets::MNIST(argc > 1 ? argv[1] : "./data")
                     .map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader(std::move(dataset), 64);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.1);

  for (auto &batch : *loader) {
    auto data = batch.data.to(device).view({-1, 784});
    optimizer.zero_grad();
    auto output = torch::log_softmax(model->forward(data), /*dim=*/1);
    auto loss = torch::nll_loss(output, batch.target);
    loss.backward();
    optimizer.step();
    std::cout << loss.item<double>() << "\n";
  }
}
