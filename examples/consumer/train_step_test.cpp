// A test of the training step, as a project would have one: a few steps of
// the model on synthetic data on the CPU. It is linked with the runtime shim
// (torchtidy_runtime() in CMakeLists.txt), so each run also writes a runtime
// report; this one records the loss tensor's graph growing across steps.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(0);
  torch::nn::Linear model(16, 1);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.01);
  torch::Tensor inputs = torch::randn({64, 16});
  torch::Tensor targets = inputs.sum(/*dim=*/1, /*keepdim=*/true);

  torch::Tensor total_loss = torch::zeros({});
  for (int step = 0; step < 10; ++step) {
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(inputs), targets);
    loss.backward();
    optimizer.step();
    total_loss += loss; // keeps every step's graph: the report shows it grow
  }
  std::cout << "mean loss " << total_loss.item<double>() / 10 << "\n";
  return 0;
}
