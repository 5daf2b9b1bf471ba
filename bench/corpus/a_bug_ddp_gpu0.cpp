// The same one-process-per-GPU program with two bugs: every process moves
// its model to "the" CUDA device, GPU 0, although it read its rank; and the
// CPU fallback switches the device after the model has moved, so the inputs
// built on the new device meet the weights on the old one.
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>
#include <string>

struct ShardNet : torch::nn::Module {
  ShardNet() {
    fc1 = register_module("fc1", torch::nn::Linear(32, 64));
    fc2 = register_module("fc2", torch::nn::Linear(64, 4));
  }
  torch::Tensor forward(torch::Tensor x) {
    return fc2->forward(torch::relu(fc1->forward(x)));
  }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};

int main() {
  const char *rankText = std::getenv("LOCAL_RANK");
  const int rank = rankText ? std::stoi(rankText) : 0;
  auto model = std::make_shared<ShardNet>();
  model->to(torch::kCUDA); // torchtidy-expect: libtorch-cuda-device-without-rank, libtorch-hardcoded-device, libtorch-unchecked-cuda

  torch::Device device(torch::kCUDA, rank);
  auto head = std::make_shared<ShardNet>();
  torch::Tensor featureMean = torch::zeros({32});
  try {
    head->to(device);
    featureMean = featureMean.to(device);
  } catch (const c10::Error &error) {
    std::cerr << error.what_without_backtrace() << "; using the CPU\n";
    device = torch::kCPU;
  }

  torch::optim::SGD optimizer(head->parameters(), 0.01);
  for (int step = 0; step < 100; ++step) {
    torch::Tensor inputs = torch::randn({16, 32}).to(device);
    torch::Tensor targets = torch::randint(0, 4, {16}).to(device);
    optimizer.zero_grad();
    torch::Tensor logits = head->forward(inputs - featureMean); // torchtidy-expect: libtorch-mixed-device-operands
    torch::Tensor loss = torch::nll_loss(torch::log_softmax(logits, 1), targets);
    loss.backward();
    optimizer.step();
  }
  std::cout << "rank " << rank << " done\n";
}
