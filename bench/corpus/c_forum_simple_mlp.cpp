// Forum-style minimal example: a two-layer MLP fitted to random data with
// full-batch gradient descent, printing the loss every 100 epochs.
#include <torch/torch.h>

#include <iostream>

struct MLP : torch::nn::Module {
  MLP(int64_t in_features, int64_t hidden, int64_t out_features) {
    fc1 = register_module("fc1", torch::nn::Linear(in_features, hidden));
    fc2 = register_module("fc2", torch::nn::Linear(hidden, out_features));
  }

  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1->forward(x));
    return fc2->forward(x);
  }

  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};

int main() {
  torch::manual_seed(0);

  torch::Device device(torch::kCPU);
  if (torch::cuda::is_available()) {
    std::cout << "CUDA is available, training on GPU" << std::endl;
    device = torch::Device(torch::kCUDA);
  }

  const int64_t n_samples = 512;
  const int64_t in_features = 10;
  const int64_t hidden = 32;
  const int64_t out_features = 1;
  const int64_t n_epochs = 1000;

  // Random regression problem: y = X w + noise
  torch::Tensor X = torch::randn({n_samples, in_features});
  torch::Tensor true_w = torch::randn({in_features, out_features});
  torch::Tensor y = X.matmul(true_w) + 0.1 * torch::randn({n_samples, out_features});

  auto model = std::make_shared<MLP>(in_features, hidden, out_features);
  model->to(device);

  X = X.to(device);
  y = y.to(device);

  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));

  model->train();
  for (int64_t epoch = 0; epoch <= n_epochs; ++epoch) {
    optimizer.zero_grad();
    torch::Tensor output = model->forward(X);
    torch::Tensor loss = torch::mse_loss(output, y);
    loss.backward();
    optimizer.step();

    if (epoch % 100 == 0) {
      std::cout << "Epoch " << epoch << " | loss: " << loss.item<float>() << std::endl;
    }
  }

  // Final check on a fresh batch drawn from the same distribution.
  torch::NoGradGuard no_grad;
  model->eval();
  torch::Tensor X_test = torch::randn({128, in_features}).to(device);
  torch::Tensor y_test = X_test.matmul(true_w.to(device));
  torch::Tensor test_loss = torch::mse_loss(model->forward(X_test), y_test);
  std::cout << "Test MSE: " << test_loss.item<float>() << std::endl;

  return 0;
}
