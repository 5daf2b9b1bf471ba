// DQN on a C++ CartPole: experience replay in a std::deque of CPU tensors, batches stacked and
// moved to the device, a target network synced by copying parameters, epsilon-greedy actions.
#include <torch/torch.h>

#include <cmath>
#include <deque>
#include <iostream>
#include <random>
#include <vector>

// Classic cart-pole dynamics (Barto, Sutton & Anderson), Euler integration.
struct CartPole {
  double x = 0, x_dot = 0, theta = 0, theta_dot = 0;
  std::mt19937 rng{123};
  torch::Tensor observe() const {
    return torch::tensor({x, x_dot, theta, theta_dot}, torch::kFloat);
  }
  torch::Tensor reset() {
    std::uniform_real_distribution<double> u(-0.05, 0.05);
    x = u(rng); x_dot = u(rng); theta = u(rng); theta_dot = u(rng);
    return observe();
  }
  bool step(int64_t action) {
    const double force = action == 1 ? 10.0 : -10.0, tau = 0.02;
    const double costheta = std::cos(theta), sintheta = std::sin(theta);
    const double temp = (force + 0.05 * theta_dot * theta_dot * sintheta) / 1.1;
    const double thetaacc = (9.8 * sintheta - costheta * temp) /
                            (0.5 * (4.0 / 3.0 - 0.1 * costheta * costheta / 1.1));
    const double xacc = temp - 0.05 * thetaacc * costheta / 1.1;
    x += tau * x_dot; x_dot += tau * xacc;
    theta += tau * theta_dot; theta_dot += tau * thetaacc;
    return std::abs(x) > 2.4 || std::abs(theta) > 12 * M_PI / 180;
  }
};

struct Transition {
  torch::Tensor state, next_state;
  int64_t action;
  float reward;
  bool done;
};

struct QNetImpl : torch::nn::Module {
  QNetImpl(int64_t obs, int64_t actions) {
    fc1 = register_module("fc1", torch::nn::Linear(obs, 128));
    fc2 = register_module("fc2", torch::nn::Linear(128, 128));
    out = register_module("out", torch::nn::Linear(128, actions));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1(x));
    x = torch::relu(fc2(x));
    return out(x);
  }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr}, out{nullptr};
};
TORCH_MODULE(QNet);

void sync_target(QNet& target, QNet& policy) {
  torch::NoGradGuard no_grad;
  auto target_params = target->parameters();
  auto policy_params = policy->parameters();
  for (size_t i = 0; i < target_params.size(); ++i) {
    target_params[i].copy_(policy_params[i]);
  }
}

int main() {
  torch::manual_seed(7);
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);

  const size_t capacity = 50000, batch_size = 64;
  const double gamma = 0.99;
  const int64_t num_actions = 2;

  QNet policy(4, num_actions), target(4, num_actions);
  policy->to(device);
  target->to(device);
  sync_target(target, policy);
  target->eval();
  torch::optim::Adam optimizer(policy->parameters(), torch::optim::AdamOptions(5e-4));

  std::deque<Transition> replay;
  std::mt19937 rng(0);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  std::uniform_int_distribution<int64_t> random_action(0, num_actions - 1);
  CartPole env;
  int64_t total_steps = 0;

  for (int episode = 0; episode < 500; ++episode) {
    auto state = env.reset();
    double epsilon = std::max(0.05, 1.0 - episode / 300.0);
    int steps = 0;
    for (bool done = false; !done && steps < 500; ++steps, ++total_steps) {
      int64_t action;
      if (coin(rng) < epsilon) {
        action = random_action(rng);
      } else {
        torch::NoGradGuard no_grad;
        action = policy->forward(state.unsqueeze(0).to(device)).argmax(1).item<int64_t>(); // torchtidy-expect: libtorch-host-sync-in-loop
      }
      done = env.step(action);
      auto next_state = env.observe();
      replay.push_back({state, next_state, action, 1.0f, done});
      if (replay.size() > capacity) replay.pop_front();
      state = next_state;

      if (replay.size() < batch_size) continue;

      std::vector<torch::Tensor> states, next_states;
      std::vector<int64_t> actions;
      std::vector<float> rewards, not_done;
      for (size_t k = 0; k < batch_size; ++k) {
        const auto& t = replay[std::uniform_int_distribution<size_t>(0, replay.size() - 1)(rng)];
        states.push_back(t.state);
        next_states.push_back(t.next_state);
        actions.push_back(t.action);
        rewards.push_back(t.reward);
        not_done.push_back(t.done ? 0.0f : 1.0f);
      }
      auto state_batch = torch::stack(states).to(device);
      auto next_batch = torch::stack(next_states).to(device);
      auto action_batch = torch::tensor(actions, torch::kLong).unsqueeze(1).to(device);
      auto reward_batch = torch::tensor(rewards).to(device);
      auto mask_batch = torch::tensor(not_done).to(device);

      torch::Tensor expected;
      {
        torch::NoGradGuard no_grad;
        auto next_q = std::get<0>(target->forward(next_batch).max(1));
        expected = reward_batch + gamma * next_q * mask_batch;
      }
      auto q = policy->forward(state_batch).gather(1, action_batch).squeeze(1);
      auto loss = torch::smooth_l1_loss(q, expected);
      optimizer.zero_grad();
      loss.backward();
      torch::nn::utils::clip_grad_value_(policy->parameters(), 1.0);
      optimizer.step();

      if (total_steps % 1000 == 0) {
        sync_target(target, policy);
        std::cout << "step " << total_steps << " loss " << loss.item<float>() << std::endl;
      }
    }
    if (episode % 20 == 0) {
      std::cout << "episode " << episode << " length " << steps << " eps " << epsilon << std::endl;
    }
  }
  torch::save(policy, "dqn_policy.pt");
}
