// A hand-rolled linear layer with raw parameters (register_parameter) stacked
// into a small classifier, trained on a synthetic two-class problem.
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

struct RawLinearImpl : torch::nn::Module {
  RawLinearImpl(int64_t in, int64_t out) {
    W = register_parameter("W", torch::randn({in, out}) / std::sqrt(static_cast<double>(in)));
    b = register_parameter("b", torch::zeros({out}));
  }

  torch::Tensor forward(const torch::Tensor& x) {
    return torch::addmm(b, x, W);
  }

  torch::Tensor W, b;
};
TORCH_MODULE(RawLinear);

struct ClassifierImpl : torch::nn::Module {
  ClassifierImpl(int64_t in, int64_t hidden, int64_t classes)
      : l1(in, hidden), l2(hidden, classes) {
    register_module("l1", l1);
    register_module("l2", l2);
  }

  torch::Tensor forward(torch::Tensor x) {
    x = torch::tanh(l1(x));
    return l2(x);
  }

  RawLinear l1, l2;
};
TORCH_MODULE(Classifier);

// Two gaussian blobs, labels 0 / 1.
std::pair<torch::Tensor, torch::Tensor> make_blobs(int64_t n, int64_t dim) {
  auto a = torch::randn({n / 2, dim}) + 2.0;
  auto b = torch::randn({n / 2, dim}) - 2.0;
  auto x = torch::cat({a, b}, 0);
  auto y = torch::cat({torch::zeros({n / 2}, torch::kLong), torch::ones({n / 2}, torch::kLong)});
  auto perm = torch::randperm(n);
  return {x.index_select(0, perm), y.index_select(0, perm)};
}

int main() {
  torch::manual_seed(42);
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  const int64_t dim = 8;
  const int64_t batch_size = 64;
  auto data = make_blobs(2048, dim);
  auto inputs = data.first;
  auto labels = data.second;

  Classifier model(dim, 16, 2);
  model->to(device);

  for (const auto& p : model->named_parameters()) {
    std::cout << p.key() << ": " << p.value().sizes() << std::endl;
  }

  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-2));

  const int64_t n = inputs.size(0);
  for (int epoch = 1; epoch <= 10; ++epoch) {
    model->train();
    double running_loss = 0.0;
    int64_t num_batches = 0;
    for (int64_t start = 0; start < n; start += batch_size) {
      auto end = std::min(start + batch_size, n);
      auto x = inputs.slice(0, start, end).to(device);
      auto y = labels.slice(0, start, end).to(device);

      optimizer.zero_grad();
      auto logits = model(x);
      auto loss = torch::nn::functional::cross_entropy(logits, y);
      loss.backward();
      optimizer.step();

      running_loss += loss.item<double>();  // torchtidy-expect: libtorch-host-sync-in-loop
      ++num_batches;
    }
    std::printf("epoch %d  mean loss %.4f\n", epoch, running_loss / num_batches);
  }

  torch::save(model, "raw_classifier.pt");
  return 0;
}
