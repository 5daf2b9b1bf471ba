// A small project in the shape real ones take: the model's class here, its
// constructor and forward() in net.cpp, helpers in utils.cpp, the training
// loop in train.cpp (and its corrected twin in train_fixed.cpp).
#pragma once
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl();
  torch::Tensor forward(torch::Tensor x);
  /// The scores of the first two classes only.
  torch::Tensor maskedScores(torch::Tensor x);
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);

// utils.cpp
torch::Tensor makeMask(int64_t width);
torch::Tensor lossOf(const torch::Tensor &prediction,
                     const torch::Tensor &target);
double meanOf(const torch::Tensor &values);
void moveBatch(torch::Tensor &data, torch::Tensor &target,
               torch::Tensor &weights, torch::Tensor &mask,
               torch::Device device);
