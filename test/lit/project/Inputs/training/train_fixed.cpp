#include "net.h"

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  Net model;
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  std::vector<torch::data::Example<>> batches;
  torch::Tensor mask = makeMask(2).to(device);
  torch::Tensor last;
  for (auto &batch : batches) {
    auto output = model->forward(batch.data.to(device));
    auto loss = lossOf(output * mask, batch.target.to(device));
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    last = loss.detach();
  }
  std::cout << meanOf(last) << std::endl;
}
