#include "layers.h"

torch::Tensor (*activation)(torch::Tensor) = &clipped;

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  torch::nn::Linear net(16, 16);
  net->to(device);
  auto table = standardize(torch::rand({64, 16}));
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({8, 16}).to(device);
    auto hidden = net(dropout(x, 0.5));
    hidden = block(hidden);
    hidden = encode(hidden);
    hidden = gaussianNoise(hidden, 0.1);
    hidden = clipped(hidden);
    hidden = shifted(hidden, torch::ones({16}).to(device));
    hidden = jitter(hidden);
    hidden.sum().backward();
  }
  return table.size(0) > 0 ? 0 : 1;
}
