#include "net.h"

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  Net model;
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  std::vector<torch::data::Example<>> batches;
  for (auto &batch : batches) {
    auto output = model->forward(batch.data.to(device));
    auto masked = output * makeMask(2);
    auto loss = lossOf(masked, batch.target);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    std::cout << meanOf(loss) << std::endl;
  }
}
