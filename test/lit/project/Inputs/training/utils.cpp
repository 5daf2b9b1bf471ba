#include "net.h"

torch::Tensor makeMask(int64_t width) { return torch::ones({width}); }

torch::Tensor lossOf(const torch::Tensor &prediction,
                     const torch::Tensor &target) {
  return torch::nll_loss(torch::log_softmax(prediction, 1), target);
}

double meanOf(const torch::Tensor &values) {
  return values.mean().item<double>();
}

void moveBatch(torch::Tensor &data, torch::Tensor &target,
               torch::Tensor &weights, torch::Tensor &mask,
               torch::Device device) {
  data = data.to(device);
  target = target.to(device);
  weights = weights.to(device);
  mask = mask.to(device);
}
