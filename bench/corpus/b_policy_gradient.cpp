// REINFORCE on a C++ cart-pole: per-step log-probabilities are collected for one episode,
// returns are discounted and normalised, and one backward pass is made per episode.
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <memory>
#include <random>
#include <vector>

class CartPoleEnv {
 public:
  std::vector<float> reset() {
    std::uniform_real_distribution<float> u(-0.05f, 0.05f);
    s_ = {u(rng_), u(rng_), u(rng_), u(rng_)};
    return s_;
  }
  // Returns true when the pole falls or the cart leaves the track.
  bool step(int64_t action) {
    float force = action ? 10.0f : -10.0f;
    float c = std::cos(s_[2]), s = std::sin(s_[2]);
    float temp = (force + 0.05f * s_[3] * s_[3] * s) / 1.1f;
    float th_acc = (9.8f * s - c * temp) / (0.5f * (4.0f / 3.0f - 0.1f * c * c / 1.1f));
    float x_acc = temp - 0.05f * th_acc * c / 1.1f;
    s_[0] += 0.02f * s_[1];
    s_[1] += 0.02f * x_acc;
    s_[2] += 0.02f * s_[3];
    s_[3] += 0.02f * th_acc;
    return std::fabs(s_[0]) > 2.4f || std::fabs(s_[2]) > 0.2095f;
  }
  const std::vector<float>& state() const { return s_; }

 private:
  std::vector<float> s_ = std::vector<float>(4, 0.0f);
  std::mt19937 rng_{543};
};

struct Policy : torch::nn::Module {
  Policy() {
    affine1 = register_module("affine1", torch::nn::Linear(4, 128));
    dropout = register_module("dropout", torch::nn::Dropout(0.6));
    affine2 = register_module("affine2", torch::nn::Linear(128, 2));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(dropout(affine1(x)));
    return torch::softmax(affine2(x), /*dim=*/1);
  }
  torch::nn::Linear affine1{nullptr}, affine2{nullptr};
  torch::nn::Dropout dropout{nullptr};
};

int main() {
  torch::manual_seed(543);
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const double gamma = 0.99;
  const double eps = 1e-8;

  auto policy = std::make_shared<Policy>();
  policy->to(device);
  torch::optim::Adam optimizer(policy->parameters(), torch::optim::AdamOptions(1e-2));

  CartPoleEnv env;
  std::vector<torch::Tensor> log_probs;
  std::vector<float> rewards;
  double running_reward = 10.0;

  for (int episode = 1; episode <= 2000; ++episode) {
    env.reset();
    double ep_reward = 0.0;
    for (int t = 0; t < 1000; ++t) {
      auto state = torch::tensor(env.state()).unsqueeze(0).to(device);
      auto probs = policy->forward(state);
      auto action = probs.multinomial(1);
      log_probs.push_back(probs.gather(1, action).log().squeeze());
      bool done = env.step(action.item<int64_t>()); // torchtidy-expect: libtorch-host-sync-in-loop
      rewards.push_back(1.0f);
      ep_reward += 1.0;
      if (done) break;
    }

    // Discounted returns, computed backwards on the host, then normalised on the device.
    std::vector<float> returns(rewards.size());
    float R = 0.0f;
    for (int64_t i = static_cast<int64_t>(rewards.size()) - 1; i >= 0; --i) {
      R = rewards[i] + gamma * R;
      returns[i] = R;
    }
    auto returns_t = torch::tensor(returns).to(device);
    returns_t = (returns_t - returns_t.mean()) / (returns_t.std() + eps);

    auto policy_loss = -(torch::stack(log_probs) * returns_t).sum();
    optimizer.zero_grad();
    policy_loss.backward();
    optimizer.step();
    log_probs.clear();
    rewards.clear();

    running_reward = 0.05 * ep_reward + 0.95 * running_reward;
    if (episode % 10 == 0) {
      std::cout << "Episode " << episode << "\tLast reward: " << ep_reward
                << "\tAverage reward: " << running_reward << std::endl;
    }
    if (running_reward > 475.0) {
      std::cout << "Solved! Running reward is now " << running_reward << std::endl;
      break;
    }
  }
  torch::save(policy, "reinforce_policy.pt");
}
