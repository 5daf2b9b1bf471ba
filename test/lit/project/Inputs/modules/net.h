#pragma once
#include "scale.h"

struct NetImpl : torch::nn::Module {
  NetImpl();
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Linear fc{nullptr};
  Scale scale{nullptr};
};
TORCH_MODULE(Net);
