// A small MLP trained for 200 iterations on the device named by argv[1], with
// no device-placement bug: the program the shim's overhead is measured on,
// and whose report must hold no event but the final loss read-back.
// MLP_TRAIN_TIME=1 prints the loop's time on stderr.
#include <torch/torch.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

struct Mlp : torch::nn::Module {
  Mlp() {
    fc1 = register_module("fc1", torch::nn::Linear(32, 64));
    fc2 = register_module("fc2", torch::nn::Linear(64, 64));
    fc3 = register_module("fc3", torch::nn::Linear(64, 10));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1->forward(x));
    x = torch::relu(fc2->forward(x));
    return torch::log_softmax(fc3->forward(x), /*dim=*/1);
  }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr}, fc3{nullptr};
};

int main(int argc, char **argv) {
  torch::Device device(argc > 1 ? argv[1] : "cpu");
  int iterations = argc > 2 ? std::atoi(argv[2]) : 200;
  torch::manual_seed(0);
  torch::set_num_threads(1);
  auto model = std::make_shared<Mlp>();
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.05);
  torch::Tensor inputs = torch::randn({64, 32});
  torch::Tensor labels = torch::randint(0, 10, {64});
  torch::Tensor loss;
  auto start = std::chrono::steady_clock::now();
  for (int iteration = 0; iteration < iterations; ++iteration) {
    torch::Tensor data = inputs.to(device);
    torch::Tensor target = labels.to(device);
    optimizer.zero_grad();
    loss = torch::nll_loss(model->forward(data), target);
    loss.backward();
    optimizer.step();
  }
  // For the overhead measurement: the loop alone, without process start-up.
  if (std::getenv("MLP_TRAIN_TIME"))
    std::fprintf(stderr, "loop %.3f ms\n",
                 std::chrono::duration<double, std::milli>(
                     std::chrono::steady_clock::now() - start)
                     .count());
  std::printf("final loss %.4f\n", loss.item<float>());
  return 0;
}
