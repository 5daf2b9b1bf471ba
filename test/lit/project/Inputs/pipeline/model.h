// A sequence tagger in the shape real projects take: the model's class here,
// its constructor and forward() in model.cpp; the data set in data.h and
// data.cpp, which loads its examples with a helper of utils.cpp; the loop in
// train.cpp. The files of fixed/ replace model.cpp and data.cpp with their
// corrected versions.
#pragma once
#include <torch/torch.h>

struct TaggerImpl : torch::nn::Module {
  TaggerImpl(int64_t vocab, int64_t hidden);
  torch::Tensor forward(torch::Tensor tokens);
  torch::nn::Embedding embed{nullptr};
  torch::nn::Linear head{nullptr};
  int64_t hidden;
};
TORCH_MODULE(Tagger);
