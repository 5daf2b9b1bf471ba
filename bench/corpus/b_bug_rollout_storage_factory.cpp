// A2C with a replay-style rollout storage that moves its own tensors with
// to(device) (not a Module). Bug report shape: "works on CPU, crashes with
// 'Expected all tensors to be on the same device' after storage.to(cuda)":
// the GAE buffer inside compute_returns() is created without a device.
#include <torch/torch.h>

#include <iostream>

class RolloutStorage {
public:
  RolloutStorage(int64_t steps, int64_t envs) : steps_(steps) {
    rewards_ = torch::zeros({steps, envs, 1});
    values_ = torch::zeros({steps + 1, envs, 1});
    returns_ = torch::zeros({steps + 1, envs, 1});
    masks_ = torch::ones({steps + 1, envs, 1});
  }

  void to(torch::Device device) {
    rewards_ = rewards_.to(device);
    values_ = values_.to(device);
    returns_ = returns_.to(device);
    masks_ = masks_.to(device);
  }

  void insert(int64_t step, const torch::Tensor &value,
              const torch::Tensor &reward, const torch::Tensor &mask) {
    values_[step].copy_(value);
    rewards_[step].copy_(reward);
    masks_[step + 1].copy_(mask);
  }

  void computeReturns(double gamma, double lambda) {
    auto gae = torch::zeros({rewards_.size(1), 1});
    for (int64_t step = steps_ - 1; step >= 0; --step) {
      auto delta = rewards_[step] +
                   gamma * values_[step + 1] * masks_[step + 1] -
                   values_[step];
      gae = delta + gamma * lambda * masks_[step + 1] * gae; // torchtidy-expect: libtorch-mixed-device-operands
      returns_[step] = gae + values_[step];
    }
  }

  torch::Tensor returns() const { return returns_.slice(0, 0, -1); }
  torch::Tensor values() const { return values_.slice(0, 0, -1); }

private:
  int64_t steps_;
  torch::Tensor rewards_, values_, returns_, masks_;
};

struct Critic : torch::nn::Module {
  explicit Critic(int64_t obs_size) {
    fc = register_module("fc", torch::nn::Linear(obs_size, 1));
  }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  const int64_t steps = 8, envs = 2, obs_size = 4;
  auto critic = std::make_shared<Critic>(obs_size);
  critic->to(device);
  RolloutStorage storage(steps, envs);
  storage.to(device);
  for (int64_t step = 0; step < steps; ++step) {
    torch::NoGradGuard no_grad;
    auto observation = torch::randn({envs, obs_size});
    auto value = critic->forward(observation.to(device));
    storage.insert(step, value, torch::rand({envs, 1}), torch::ones({envs, 1}));
  }
  storage.computeReturns(0.99, 0.95);
  auto advantage = storage.returns() - storage.values();
  std::cout << advantage.abs().mean().item<double>() << "\n";
}
