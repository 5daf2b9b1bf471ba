#include "net.h"

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  auto net = std::make_shared<Net>(10);
  net->to(device);
  torch::optim::SGD optimizer(net->parameters(), 0.1);
  auto x = torch::randn({8, 784}, device);
  auto loss = net->forward(x).sum();
  loss.backward();
  optimizer.step();
}
