#include "model.h"

TaggerImpl::TaggerImpl(int64_t vocab, int64_t hidden) : hidden(hidden) {
  embed = register_module("embed", torch::nn::Embedding(vocab, hidden));
  head = register_module("head", torch::nn::Linear(hidden, 2));
}

torch::Tensor TaggerImpl::forward(torch::Tensor tokens) {
  auto features = embed->forward(tokens);
  auto noise = torch::randn({hidden}, features.options()) * 0.1;
  return head->forward(features + noise);
}
