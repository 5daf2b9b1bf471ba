// A small MNIST-style training program, written the way the official LibTorch
// examples are, with one device-placement bug of each kind torchtidy finds.
// `scripts/demo.sh` lints it; see README.md.
#include <torch/torch.h>

#include <cstdio>
#include <iostream>

struct Net : torch::nn::Module {
  Net() {
    fc1 = register_module("fc1", torch::nn::Linear(784, 64));
    fc2 = register_module("fc2", torch::nn::Linear(64, 10));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1->forward(x.view({x.size(0), 784})));
    return torch::log_softmax(fc2->forward(x), /*dim=*/1);
  }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};

int main(int argc, char **argv) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  auto model = std::make_shared<Net>();
  model->to(device);

  const char *root = argc > 1 ? argv[1] : "./data";
  auto dataset = torch::data::datasets::MNIST(root)
                     .map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader(std::move(dataset), 64);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.01);

  torch::Tensor class_weights = torch::ones({10});
  torch::Tensor running_loss = torch::zeros({});
  for (int epoch = 1; epoch <= 5; ++epoch) {
    for (auto &batch : *loader) {
      auto data = batch.data.to(device);
      optimizer.zero_grad();
      auto output = model->forward(data);
      // Bug 1: the labels never left the CPU.
      auto loss = torch::nll_loss(output, batch.target);
      loss.backward();
      optimizer.step();
      // Bug 2: the loss tensor keeps every iteration's graph alive.
      running_loss += loss;
    }
    // Bug 3: class weights created on the host meet the model's output.
    auto probe = torch::randn({1, 1, 28, 28}).to(device);
    auto weighted = model->forward(probe) * class_weights;
    std::printf("epoch %d: loss %.4f, weighted %.4f\n", epoch,
                running_loss.item<double>(), weighted.sum().item<double>());
  }
}
