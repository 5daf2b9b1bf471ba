// PPO-style training with a rollout storage that is not a Module but moves
// its own tensors with to(device), as public RL code writes it; the returns
// are computed inside the storage. The loss is logged through a helper.
#include <torch/torch.h>

#include <iostream>
#include <vector>

class RolloutStorage {
public:
  RolloutStorage(int64_t steps, int64_t envs, int64_t obs_size)
      : steps_(steps) {
    observations_ = torch::zeros({steps + 1, envs, obs_size});
    rewards_ = torch::zeros({steps, envs, 1});
    values_ = torch::zeros({steps + 1, envs, 1});
    returns_ = torch::zeros({steps + 1, envs, 1});
    masks_ = torch::ones({steps + 1, envs, 1});
  }

  void to(torch::Device device) {
    device_ = device;
    observations_ = observations_.to(device);
    rewards_ = rewards_.to(device);
    values_ = values_.to(device);
    returns_ = returns_.to(device);
    masks_ = masks_.to(device);
  }

  void insert(int64_t step, const torch::Tensor &observation,
              const torch::Tensor &value, const torch::Tensor &reward,
              const torch::Tensor &mask) {
    observations_[step + 1].copy_(observation);
    values_[step].copy_(value);
    rewards_[step].copy_(reward);
    masks_[step + 1].copy_(mask);
  }

  void computeReturns(const torch::Tensor &next_value, double gamma,
                      double lambda) {
    values_[steps_] = next_value;
    auto gae = torch::zeros({rewards_.size(1), 1},
                            torch::TensorOptions(device_));
    for (int64_t step = steps_ - 1; step >= 0; --step) {
      auto delta = rewards_[step] +
                   gamma * values_[step + 1] * masks_[step + 1] -
                   values_[step];
      gae = delta + gamma * lambda * masks_[step + 1] * gae;
      returns_[step] = gae + values_[step];
    }
  }

  torch::Tensor observations() const { return observations_.slice(0, 0, -1); }
  torch::Tensor returns() const { return returns_.slice(0, 0, -1); }

private:
  int64_t steps_;
  torch::Device device_{torch::kCPU};
  torch::Tensor observations_, rewards_, values_, returns_, masks_;
};

struct ActorCritic : torch::nn::Module {
  explicit ActorCritic(int64_t obs_size) {
    body = register_module("body", torch::nn::Linear(obs_size, 64));
    value = register_module("value", torch::nn::Linear(64, 1));
  }
  torch::Tensor forward(torch::Tensor x) {
    return value->forward(torch::tanh(body->forward(x)));
  }
  torch::nn::Linear body{nullptr}, value{nullptr};
};

static double logged_loss = 0;

void logLoss(const torch::Tensor &loss) { logged_loss += loss.item<double>(); }

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  const int64_t steps = 16, envs = 4, obs_size = 8;
  auto model = std::make_shared<ActorCritic>(obs_size);
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), 3e-4);
  RolloutStorage storage(steps, envs, obs_size);
  storage.to(device);

  for (int update = 0; update < 10; ++update) {
    for (int64_t step = 0; step < steps; ++step) {
      auto observation = torch::randn({envs, obs_size});
      auto reward = torch::rand({envs, 1});
      auto mask = torch::ones({envs, 1});
      torch::NoGradGuard no_grad;
      auto value = model->forward(observation.to(device));
      storage.insert(step, observation, value, reward, mask);
    }
    {
      torch::NoGradGuard no_grad;
      auto next_value = model->forward(torch::randn({envs, obs_size}).to(device));
      storage.computeReturns(next_value, 0.99, 0.95);
    }
    for (int epoch = 0; epoch < 4; ++epoch) {
      auto values = model->forward(storage.observations());
      auto loss = torch::mse_loss(values, storage.returns());
      optimizer.zero_grad();
      loss.backward();
      optimizer.step();
      logLoss(loss); // torchtidy-expect: libtorch-host-sync-in-loop
    }
  }
  std::cout << "mean loss " << logged_loss / 40 << "\n";
}
