// A residual network: x = x + f(x), ten blocks per forward pass, 40
// iterations. Each forward pass makes the autograd history deeper at the
// same call site ten times, but every iteration starts afresh: no
// graph_growth event (the false-positive guard).
#include <torch/torch.h>

#include <iostream>

struct Residual : torch::nn::Module {
  Residual() {
    for (int block = 0; block < 10; ++block)
      layers.push_back(register_module("block" + std::to_string(block),
                                       torch::nn::Linear(8, 8)));
  }
  torch::Tensor forward(torch::Tensor x) {
    for (auto &layer : layers)
      x = x + torch::relu(layer->forward(x)); // deeper at each block
    return x;
  }
  std::vector<torch::nn::Linear> layers;
};

int main(int argc, char **argv) {
  torch::Device device(argc > 1 ? argv[1] : "cpu");
  torch::manual_seed(0);
  auto model = std::make_shared<Residual>();
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.001);
  torch::Tensor inputs = torch::randn({16, 8}, device);
  for (int iteration = 0; iteration < 40; ++iteration) {
    optimizer.zero_grad();
    torch::Tensor loss = model->forward(inputs).pow(2).mean();
    loss.backward();
    optimizer.step();
  }
  std::cout << "done\n";
  return 0;
}
