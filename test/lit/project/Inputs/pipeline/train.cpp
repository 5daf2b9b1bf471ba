#include "data.h"
#include "model.h"

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  Tagger model(100, 8);
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  auto loader = torch::data::make_data_loader(
      SentenceDataset("train.txt").map(torch::data::transforms::Stack<>()),
      32);
  for (auto &batch : *loader) {
    auto data = batch.data.to(device), target = batch.target.to(device);
    auto loss = torch::cross_entropy_loss(model->forward(data), target);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
}
