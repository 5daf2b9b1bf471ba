// Sums the loss over 30 training iterations. With argv[2] = "tensor" the sum
// is a tensor that keeps every iteration's autograd history, one node deeper
// each time (a graph_growth event); with "item" it is a double, the fix (no
// graph_growth event).
#include <torch/torch.h>

#include <cstring>
#include <iostream>

int main(int argc, char **argv) {
  torch::Device device(argc > 1 ? argv[1] : "cpu");
  bool keepHistory = argc > 2 && std::strcmp(argv[2], "tensor") == 0;
  torch::manual_seed(0);
  torch::nn::Linear model(4, 1);
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.01);
  torch::Tensor inputs = torch::randn({8, 4}, device);
  torch::Tensor targets = torch::randn({8, 1}, device);

  torch::Tensor totalLoss = torch::zeros({}, device);
  double total = 0;
  for (int iteration = 0; iteration < 30; ++iteration) {
    optimizer.zero_grad();
    torch::Tensor loss = torch::mse_loss(model->forward(inputs), targets);
    if (keepHistory)
      totalLoss += loss; // keeps the graph of every iteration alive
    else
      total += loss.item<double>();
    loss.backward();
    optimizer.step();
  }
  if (keepHistory)
    total = totalLoss.item<double>();
  std::cout << "mean loss " << total / 30 << "\n";
  return 0;
}
