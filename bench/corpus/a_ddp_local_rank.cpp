// One process per GPU, launched by torchrun-style tooling that sets
// LOCAL_RANK: each process binds to its own GPU, falls back to the CPU when
// the device cannot be used, and trains on its shard of the data.
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

int localRank() {
  const char *value = std::getenv("LOCAL_RANK");
  return value ? std::stoi(value) : 0;
}

torch::Device pickDevice(int rank) {
  if (!torch::cuda::is_available())
    return torch::kCPU;
  return torch::Device(torch::kCUDA, rank % torch::cuda::device_count());
}

int main() {
  const int rank = localRank();
  torch::Device device = pickDevice(rank);
  auto model = std::make_shared<ShardNet>();
  torch::Tensor featureMean = torch::zeros({32});
  try {
    model->to(device);
    featureMean = featureMean.to(device);
  } catch (const c10::Error &error) {
    std::cerr << "rank " << rank << ": " << error.what_without_backtrace()
              << "; training on the CPU\n";
    device = torch::kCPU;
    model->to(device);
    featureMean = featureMean.to(device);
  }

  torch::optim::SGD optimizer(model->parameters(), 0.01);
  double epochLoss = 0;
  for (int step = 0; step < 100; ++step) {
    torch::Tensor inputs = torch::randn({16, 32}).to(device);
    torch::Tensor targets = torch::randint(0, 4, {16}).to(device);
    optimizer.zero_grad();
    torch::Tensor loss = torch::nll_loss(
        torch::log_softmax(model->forward(inputs - featureMean), 1), targets);
    loss.backward();
    optimizer.step();
    epochLoss += loss.item<double>(); // torchtidy-expect: libtorch-host-sync-in-loop
  }
  std::cout << "rank " << rank << " loss " << epochLoss / 100 << "\n";
}
