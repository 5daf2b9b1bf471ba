#include "loss.h"
#include "net.h"
#include "scale.h"

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  Net model;
  model->to(device);
  Scale head;
  head->to(device);
  FocalLoss criterion(2.0);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  std::vector<torch::data::Example<>> batches;
  for (auto &batch : batches) {
    auto input = batch.data.to(device);
    auto target = batch.target.to(device);
    auto output = head(model(input));
    auto loss = criterion(output, target);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
}
