// Residual MLP with a learnable per-feature "layer scale" vector on each block
// (bug report: "scale never changes during training and GPU run crashes").
#include <torch/torch.h>

#include <iostream>
#include <memory>
#include <vector>

struct ScaledBlock : torch::nn::Module {
  ScaledBlock(int64_t n, double init_scale) {
    norm = register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({n})));
    fc1 = register_module("fc1", torch::nn::Linear(n, 4 * n));
    fc2 = register_module("fc2", torch::nn::Linear(4 * n, n));
    scale = torch::ones({n}).set_requires_grad(true); // torchtidy-expect: libtorch-unregistered-module-member
    {
      torch::NoGradGuard no_grad;
      scale.mul_(init_scale);
    }
  }

  torch::Tensor forward(torch::Tensor x) {
    auto h = fc2->forward(torch::gelu(fc1->forward(norm->forward(x))));
    return x + scale * h;
  }

  torch::nn::LayerNorm norm{nullptr};
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
  torch::Tensor scale;
};

struct ResMLP : torch::nn::Module {
  ResMLP(int64_t in, int64_t width, int64_t depth, int64_t out) {
    stem = register_module("stem", torch::nn::Linear(in, width));
    for (int64_t i = 0; i < depth; ++i) {
      blocks.push_back(register_module("block" + std::to_string(i), std::make_shared<ScaledBlock>(width, 0.1)));
    }
    head = register_module("head", torch::nn::Linear(width, out));
  }

  torch::Tensor forward(torch::Tensor x) {
    x = stem->forward(x);
    for (auto& block : blocks) {
      x = block->forward(x);
    }
    return head->forward(x);
  }

  torch::nn::Linear stem{nullptr}, head{nullptr};
  std::vector<std::shared_ptr<ScaledBlock>> blocks;
};

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);

  const int64_t in = 20, width = 64, out = 4;
  auto net = std::make_shared<ResMLP>(in, width, /*depth=*/4, out);
  net->to(device);
  std::cout << "trainable tensors: " << net->parameters().size() << std::endl;

  torch::optim::AdamW optimizer(net->parameters(), torch::optim::AdamWOptions(1e-3).weight_decay(0.01));

  // Fixed synthetic classification set: label = argmax of a random projection.
  auto projection = torch::randn({in, out});
  auto inputs = torch::randn({4096, in});
  auto labels = inputs.matmul(projection).argmax(1);

  const int64_t batch = 128;
  for (int epoch = 1; epoch <= 20; ++epoch) {
    net->train();
    auto perm = torch::randperm(inputs.size(0));
    double running_loss = 0.0;
    int64_t steps = 0;
    for (int64_t i = 0; i + batch <= inputs.size(0); i += batch) {
      auto idx = perm.slice(0, i, i + batch);
      auto x = inputs.index_select(0, idx).to(device);
      auto y = labels.index_select(0, idx).to(device);

      optimizer.zero_grad();
      auto logits = net->forward(x);
      auto loss = torch::cross_entropy_loss(logits, y);
      loss.backward();
      optimizer.step();
      running_loss += loss.item<double>();  // torchtidy-expect: libtorch-host-sync-in-loop
      ++steps;
    }
    std::cout << "epoch " << epoch << " loss " << running_loss / steps
              << " first block scale mean " << net->blocks[0]->scale.mean().item<float>() << std::endl;
  }
  return 0;
}
