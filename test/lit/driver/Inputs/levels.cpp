#include <torch/torch.h>

// One finding per level: bug, performance, style (two style checks).
void run(torch::Tensor x, torch::Tensor weights, torch::Device device) {
  x.to(device);
  for (int i = 0; i < 3; ++i)
    auto w = weights.to(device);
  auto y = x.cuda();
}
