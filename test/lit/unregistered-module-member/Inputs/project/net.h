// A model split the usual way: the class here, its constructors in net.cpp.
#pragma once
#include <torch/torch.h>

// Every member is registered by the constructor in net.cpp; a file that
// includes this header alone cannot see that, and judges nothing.
struct Net : torch::nn::Module {
  explicit Net(int64_t classes);
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Linear fc{784, 10};
  torch::nn::Dropout drop;
  torch::Tensor scale = torch::ones({10}, torch::requires_grad());
};

// Its constructor in net.cpp forgets the dropout: found where the
// constructor is seen, reported once at the member.
struct Half : torch::nn::Module {
  Half();
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Linear fc{nullptr};
  torch::nn::Dropout drop;
};
