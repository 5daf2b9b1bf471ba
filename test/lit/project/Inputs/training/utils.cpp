#include "net.h"

torch::Tensor makeMask(int64_t width) { return torch::ones({width}); }

torch::Tensor lossOf(const torch::Tensor &prediction,
                     const torch::Tensor &target) {
  return torch::nll_loss(torch::log_softmax(prediction, 1), target);
}

double meanOf(const torch::Tensor &values) {
  return values.mean().item<double>();
}
