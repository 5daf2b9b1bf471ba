// Training code split into small helpers that take the device as a
// parameter: compute_loss() for one batch, evaluate() returning the mean
// validation loss as a double, and a driver in main().
#include <torch/torch.h>

#include <iostream>
#include <vector>

using Batch = torch::data::Example<>;

struct NetImpl : torch::nn::Module {
  NetImpl(int64_t in, int64_t hidden, int64_t out) {
    fc1 = register_module("fc1", torch::nn::Linear(in, hidden));
    norm = register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({hidden})));
    fc2 = register_module("fc2", torch::nn::Linear(hidden, out));
    temperature = register_parameter("temperature", torch::ones({1}));
  }

  torch::Tensor forward(torch::Tensor x) {
    x = torch::silu(norm(fc1(x)));
    return fc2(x) / temperature;
  }

  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
  torch::nn::LayerNorm norm{nullptr};
  torch::Tensor temperature;
};
TORCH_MODULE(Net);

std::vector<Batch> make_batches(int64_t n_batches, int64_t batch_size, int64_t features,
                                const torch::Tensor& true_w) {
  std::vector<Batch> batches;
  for (int64_t i = 0; i < n_batches; ++i) {
    auto x = torch::randn({batch_size, features});
    auto y = x.matmul(true_w).argmax(1);
    batches.emplace_back(x, y);
  }
  return batches;
}

torch::Tensor compute_loss(Net& net, const Batch& batch, torch::Device device) {
  auto inputs = batch.data.to(device);
  auto targets = batch.target.to(device);
  auto logits = net->forward(inputs);
  return torch::nn::functional::cross_entropy(logits, targets);
}

double evaluate(Net& net, const std::vector<Batch>& batches, torch::Device device) {
  torch::NoGradGuard no_grad;
  net->eval();
  auto total = torch::zeros({}, torch::TensorOptions().device(device));
  for (const auto& batch : batches) {
    total += compute_loss(net, batch, device);
  }
  net->train();
  return total.item<double>() / static_cast<double>(batches.size());
}

void train_one_epoch(Net& net, const std::vector<Batch>& batches,
                     torch::optim::Optimizer& optimizer, torch::Device device) {
  double running_loss = 0.0;
  for (size_t i = 0; i < batches.size(); ++i) {
    optimizer.zero_grad();
    torch::Tensor loss = compute_loss(net, batches[i], device);
    loss.backward();
    torch::nn::utils::clip_grad_norm_(net->parameters(), /*max_norm=*/1.0);
    optimizer.step();
    running_loss += loss.item<double>(); // torchtidy-expect: libtorch-host-sync-in-loop
  }
  std::cout << "  train loss " << running_loss / batches.size() << std::endl;
}

int main() {
  torch::manual_seed(3);
  const int64_t features = 20, classes = 5;

  torch::Device device(torch::kCPU);
  if (torch::cuda::is_available()) {
    device = torch::Device(torch::kCUDA);
  }

  auto true_w = torch::randn({features, classes});
  auto train_batches = make_batches(100, 64, features, true_w);
  auto val_batches = make_batches(20, 256, features, true_w);

  Net net(features, 64, classes);
  net->to(device);
  torch::optim::Adam optimizer(net->parameters(), torch::optim::AdamOptions(3e-3));

  for (int epoch = 1; epoch <= 8; ++epoch) {
    std::cout << "epoch " << epoch << std::endl;
    train_one_epoch(net, train_batches, optimizer, device);
    std::cout << "  val loss " << evaluate(net, val_batches, device) << std::endl;
  }
  return 0;
}
