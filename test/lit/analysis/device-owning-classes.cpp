// Classes that are not Modules but own tensors and move them with a
// `to(torch::Device)` of their own (rollout storages, replay buffers): inside
// their methods, the fields that `to` moves are wherever the object was
// moved, and a tensor created there on the host is a device mix. Shaped like
// the rollout storage of a public PPO implementation.
// RUN: %check_lint %s --checks='%bug_checks' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

class RolloutStorage {
public:
  RolloutStorage(int64_t steps, torch::Device device)
      : device(device), steps(steps) {
    // The constructor creates them where it was told: no finding.
    rewards = torch::zeros({steps, 1}, torch::TensorOptions(device));
    returns = torch::zeros({steps + 1, 1}, torch::TensorOptions(device));
    masks = torch::ones({steps + 1, 1});
    counts = torch::zeros({steps});
  }

  void to(torch::Device device) {
    this->device = device;
    rewards = rewards.to(device);
    returns = returns.to(device);
    masks = masks.to(device);
    // `counts` stays where it is: `to` does not move it.
  }

  void computeReturns(float gamma) {
    // A buffer created where the object says its device is: fine.
    auto gae = torch::zeros({1}, torch::TensorOptions(device));
    // A fresh host tensor combined with a field `to` moved: a mix.
    auto bonus = torch::zeros({steps, 1});
    auto shaped = rewards + bonus;
    // CHECK: :[[@LINE-1]]:27: warning: 'bonus' is on the CPU (created by 'torch::zeros' without a device) but 'rewards' is on the device 'RolloutStorage::to' moved it to; '+' needs all its tensor operands on one device [libtorch-mixed-device-operands]
    // CHECK: :[[@LINE-3]]:18: note: created here by 'torch::zeros' on the CPU
    for (int64_t step = steps - 1; step >= 0; --step) {
      auto delta = rewards[step] + gamma * returns[step + 1] * masks[step + 1];
      gae = delta + gamma * gae;
      returns[step] = gae;
    }
    // A field that `to` does not move is not placed: nothing said.
    auto seen = counts + torch::ones({steps});
    // 0-dim host scalars mix with anything.
    auto scaled = returns * torch::tensor(2.0);
  }

  torch::Tensor normalizedMasks() {
    // Made like the field: fine.
    return masks / torch::ones_like(masks);
  }

  const torch::Tensor &getRewards() const { return rewards; }

private:
  torch::Device device;
  int64_t steps;
  torch::Tensor rewards, returns, masks, counts;
};

// A class whose `to` is only declared here moves what this file cannot see:
// its methods are not judged.
class ReplayBuffer {
public:
  void to(torch::Device device);
  torch::Tensor sample() { return states + torch::zeros({4}); }

private:
  torch::Tensor states;
};

// A class with no `to` of its own: its fields are not placed.
struct RunningMean {
  torch::Tensor mean = torch::zeros({4});
  torch::Tensor update(const torch::Tensor &x) {
    mean = mean * 0.9 + torch::zeros({4});
    return mean;
  }
};

void train(torch::Device device) {
  RolloutStorage storage(8, torch::kCPU);
  storage.to(device);
  storage.computeReturns(0.99f);
  // Outside the class, a field read through a getter is not placed by this
  // rule: silent either way.
  auto total = storage.getRewards().sum() + torch::zeros({1});
}
