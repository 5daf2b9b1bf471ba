#pragma once
#include <torch/torch.h>

// A loss without weights; its constructor is in loss.cpp.
struct FocalLossImpl : torch::nn::Module {
  explicit FocalLossImpl(double gamma);
  torch::Tensor forward(torch::Tensor input, torch::Tensor target);
  double gamma;
};
TORCH_MODULE(FocalLoss);
