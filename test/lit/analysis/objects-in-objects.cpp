// Objects inside objects: an agent that keeps its replay memory as a member,
// the shape of most public DQN code. What the agent's constructors and
// methods leave in the memory's tensors is a fact of the agent's class,
// true in every method: storage the memory allocates on the CPU (no
// options given) is on the CPU when learn() samples it for a network the
// agent moved to its device.
// RUN: %check_lint %s --checks='%bug_checks' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// RUN: cp %s %t.cpp
// RUN: %clang_tidy %t.cpp --fix --checks='-*,libtorch-missing-target-migration' -- %torch_flags > %t.out
// RUN: grep -v 'FIXED:' %t.cpp | FileCheck %s --check-prefix=FIXED
#include <torch/torch.h>

struct QNet : torch::nn::Module {
  QNet() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

class ReplayMemory {
public:
  ReplayMemory(int64_t capacity, int64_t obs_dim,
               torch::TensorOptions options = torch::TensorOptions())
      : states_(torch::zeros({capacity, obs_dim}, options)),
        rewards_(torch::zeros({capacity}, options)), capacity_(capacity) {}
  void push(const torch::Tensor &state, float reward) {
    states_[pos_] = state;
    rewards_[pos_] = reward;
    pos_ = (pos_ + 1) % capacity_;
    size_ = std::min(size_ + 1, capacity_);
  }
  std::pair<torch::Tensor, torch::Tensor> sample(int64_t batch) {
    auto idx = torch::randint(size_, {batch}, torch::kLong);
    return {states_.index_select(0, idx), rewards_.index_select(0, idx)};
  }

private:
  torch::Tensor states_, rewards_;
  int64_t capacity_, pos_ = 0, size_ = 0;
};

// The shape: the memory is built in the agent's initialisers, filled by
// one method and sampled by another.
class Agent {
public:
  explicit Agent(torch::Device device)
      : device_(device), policy_(std::make_shared<QNet>()),
        memory_(10000, 4) {
    policy_->to(device_);
  }
  void remember(const torch::Tensor &state, float reward) {
    memory_.push(state, reward);
  }
  torch::Tensor learn() {
    auto [states, rewards] = memory_.sample(32);
    auto q = policy_->forward(states);
    // CHECK: :[[@LINE-1]]:31: warning: input 'states' of 'policy_' is on the CPU (returned by 'memory_.sample(32)') but the module is on 'device_'; move it with 'states.to(device_)' [libtorch-missing-target-migration]
    // CHECK: :[[@LINE-3]]:30: note: 'memory_.sample(32)' returns it on the CPU
    // CHECK: :[[@LINE-11]]:9: note: 'ReplayMemory' leaves 'memory_.states_' on the CPU
    // CHECK: :[[@LINE-36]]:17: note: created here by 'torch::zeros' on the CPU
    // FIXED: auto q = policy_->forward(states.to(device_));
    return std::get<0>(q.max(1)) - rewards.to(device_);
  }

private:
  torch::Device device_;
  std::shared_ptr<QNet> policy_;
  ReplayMemory memory_;
};

// One step removed: the memory is a default member initialiser, the agent
// starts a new one in reset(), and sampled rows meet the device in an op.
class EpisodicAgent {
public:
  explicit EpisodicAgent(torch::Device device) : device_(device) {}
  void reset() { memory_ = ReplayMemory(256, 4); }
  torch::Tensor advantage(const torch::Tensor &values) {
    auto target = values.to(device_);
    auto [states, rewards] = memory_.sample(16);
    return rewards - target;
    // CHECK: :[[@LINE-1]]:20: warning: 'rewards' is on the CPU (returned by 'memory_.sample(16)') but 'target' is on 'device_' (moved with '.to(device_)'); '-' needs all its tensor operands on one device [libtorch-mixed-device-operands]
    // CHECK: :[[@LINE-3]]:30: note: 'memory_.sample(16)' returns it on the CPU
    // CHECK: :[[@LINE+5]]:23: note: 'ReplayMemory' leaves 'memory_.rewards_' on the CPU
  }

private:
  torch::Device device_;
  ReplayMemory memory_{256, 4};
};

// Through a helper: the agent hands the sampled rows to a function of the
// file that runs the network on them.
static torch::Tensor qValues(QNet &net, const torch::Tensor &states) {
  return net.forward(states);
}
class HelperAgent {
public:
  explicit HelperAgent(torch::Device device)
      : device_(device), policy_(std::make_shared<QNet>()), memory_(512, 4) {
    policy_->to(device_);
  }
  torch::Tensor act() {
    auto [states, rewards] = memory_.sample(1);
    return qValues(*policy_, states);
    // CHECK: :[[@LINE-1]]:30: warning: input 'states' of 'policy_' is on the CPU (returned by 'memory_.sample(1)') but the module is on 'device_'; move it with 'states.to(device_)' [libtorch-missing-target-migration]
    // CHECK: :[[@LINE-3]]:30: note: 'memory_.sample(1)' returns it on the CPU
    // CHECK: :[[@LINE-8]]:61: note: 'ReplayMemory' leaves 'memory_.states_' on the CPU
    // CHECK: :[[@LINE-14]]:10: note: 'net' is called here with 'states' on the CPU
    // FIXED: return qValues(*policy_, states.to(device_));
  }

private:
  torch::Device device_;
  std::shared_ptr<QNet> policy_;
  ReplayMemory memory_;
};

// Not findings: a memory given the agent's device; rows moved before use; a
// memory handed to code this file cannot see; a memory replaced through a
// reference, or by a lambda; a memory anybody may replace.
void refill(ReplayMemory &memory, torch::Device device);

class OnDeviceAgent {
public:
  explicit OnDeviceAgent(torch::Device device)
      : device_(device), policy_(std::make_shared<QNet>()),
        memory_(1000, 4, torch::TensorOptions().device(device_)) {
    policy_->to(device_);
  }
  torch::Tensor learn() { return policy_->forward(memory_.sample(8).first); }

private:
  torch::Device device_;
  std::shared_ptr<QNet> policy_;
  ReplayMemory memory_;
};

class MovingAgent {
public:
  explicit MovingAgent(torch::Device device)
      : device_(device), policy_(std::make_shared<QNet>()), memory_(100, 4) {
    policy_->to(device_);
  }
  torch::Tensor learn() {
    auto [states, rewards] = memory_.sample(8);
    return policy_->forward(states.to(device_));
  }

private:
  torch::Device device_;
  std::shared_ptr<QNet> policy_;
  ReplayMemory memory_;
};

class RefilledAgent {
public:
  explicit RefilledAgent(torch::Device device)
      : device_(device), policy_(std::make_shared<QNet>()), memory_(100, 4) {
    policy_->to(device_);
  }
  void prepare() { refill(memory_, device_); }
  torch::Tensor learn() { return policy_->forward(memory_.sample(8).first); }

private:
  torch::Device device_;
  std::shared_ptr<QNet> policy_;
  ReplayMemory memory_;
};

class AliasingAgent {
public:
  explicit AliasingAgent(torch::Device device)
      : device_(device), policy_(std::make_shared<QNet>()), memory_(100, 4) {
    policy_->to(device_);
  }
  void prepare() {
    ReplayMemory &memory = memory_;
    memory = ReplayMemory(100, 4, torch::TensorOptions().device(device_));
  }
  torch::Tensor learn() { return policy_->forward(memory_.sample(8).first); }

private:
  torch::Device device_;
  std::shared_ptr<QNet> policy_;
  ReplayMemory memory_;
};

class CallbackAgent {
public:
  explicit CallbackAgent(torch::Device device)
      : device_(device), policy_(std::make_shared<QNet>()), memory_(100, 4) {
    policy_->to(device_);
  }
  void prepare() {
    auto renew = [this] {
      memory_ = ReplayMemory(100, 4, torch::TensorOptions().device(device_));
    };
    renew();
  }
  torch::Tensor learn() { return policy_->forward(memory_.sample(8).first); }

private:
  torch::Device device_;
  std::shared_ptr<QNet> policy_;
  ReplayMemory memory_;
};

class OpenAgent {
public:
  explicit OpenAgent(torch::Device device)
      : device_(device), policy_(std::make_shared<QNet>()), memory_(100, 4) {
    policy_->to(device_);
  }
  torch::Tensor learn() { return policy_->forward(memory_.sample(8).first); }
  ReplayMemory memory_;

private:
  torch::Device device_;
  std::shared_ptr<QNet> policy_;
};

// Objects from elsewhere: the memory passed by reference to the training
// step that samples it, from the one loop that calls the step. What the
// caller's object holds is the step's context; a helper that builds a new
// memory on the device changes it, as its summary says.
static torch::Tensor tdError(ReplayMemory &memory, QNet &net) {
  auto [states, rewards] = memory.sample(32);
  return std::get<0>(net.forward(states).max(1)) - rewards;
  // CHECK: :[[@LINE-1]]:22: warning: 'states' is on the CPU (returned by 'memory.sample(32)') but 'net' is on 'device' (passed by 'trainLoop'); 'net' needs all its tensor operands on one device [libtorch-mixed-device-operands]
  // CHECK: :[[@LINE-3]]:28: note: 'memory.sample(32)' returns it on the CPU
  // CHECK: :[[@LINE+15]]:13: note: 'memory.states_' is on the CPU here: passed by 'trainLoop'
  // CHECK: :[[@LINE+12]]:16: note: 'ReplayMemory' leaves 'memory.states_' on the CPU
}
static torch::Tensor tdErrorOnDevice(ReplayMemory &memory, QNet &net) {
  auto [states, rewards] = memory.sample(32);
  return std::get<0>(net.forward(states).max(1)) - rewards;
}
static void renew(ReplayMemory &memory, torch::Device device) {
  memory = ReplayMemory(100, 4, torch::TensorOptions().device(device));
}
void trainLoop(torch::Device device) {
  auto net = std::make_shared<QNet>();
  net->to(device);
  ReplayMemory memory(1000, 4);
  for (int step = 0; step < 100; ++step)
    tdError(memory, *net);
  ReplayMemory fresh(1000, 4);
  renew(fresh, device);
  for (int step = 0; step < 100; ++step)
    tdErrorOnDevice(fresh, *net);
}
