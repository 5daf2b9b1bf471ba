#include <torch/torch.h>

void broken(torch::Device device) {
  auto x = torch::ones({2}).to(devic);
}
