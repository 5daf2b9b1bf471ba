#include "loss.h"

FocalLossImpl::FocalLossImpl(double gamma) : gamma(gamma) {}

torch::Tensor FocalLossImpl::forward(torch::Tensor input,
                                     torch::Tensor target) {
  return torch::nll_loss(torch::log_softmax(input, 1), target) * gamma;
}
