#pragma once
#include <torch/torch.h>

// A learned scale. What it holds is registered by its constructor, in
// scale.cpp: this header does not show it.
struct ScaleImpl : torch::nn::Module {
  ScaleImpl();
  torch::Tensor forward(torch::Tensor x);
};
TORCH_MODULE(Scale);
