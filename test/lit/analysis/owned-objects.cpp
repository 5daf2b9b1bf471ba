// Objects a std::unique_ptr owns: an agent's replay memory held by pointer,
// built with std::make_unique, `new` or `reset`. No other code shares the
// object, so it is followed as an object the class holds by value is
// (objects-in-objects.cpp): what its constructor leaves in its tensors,
// and what the methods called through the pointer do to them.
// RUN: %check_lint %s --checks='%bug_checks' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

#include <memory>

struct PolicyImpl : torch::nn::Module {
  PolicyImpl() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Policy);

class ReplayMemory {
public:
  explicit ReplayMemory(int64_t capacity,
                        torch::TensorOptions options = torch::TensorOptions())
      : states_(torch::zeros({capacity, 4}, options)), capacity_(capacity) {}
  void add(const torch::Tensor &state) {
    states_[position_] = state;
    position_ = (position_ + 1) % capacity_;
  }
  torch::Tensor sample(int64_t n) const {
    return states_.index_select(
        0, torch::randint(capacity_, {n}, torch::kLong));
  }

private:
  torch::Tensor states_;
  int64_t capacity_, position_ = 0;
};

// The shape: the agent's initialisers make the memory with make_unique,
// without a device.
class Agent {
public:
  explicit Agent(torch::Device device)
      : device_(device), memory_(std::make_unique<ReplayMemory>(10000)) {
    policy_->to(device_);
  }
  void learn() {
    auto states = memory_->sample(32);
    auto q = policy_->forward(states);
    // CHECK: :[[@LINE-1]]:31: warning: input 'states' of 'policy_' is on the CPU (returned by 'memory_->sample(32)') but the module is on 'device_'; move it with 'states.to(device_)' [libtorch-missing-target-migration]
    // CHECK: :[[@LINE-3]]:19: note: 'memory_->sample(32)' returns it on the CPU
    // CHECK: :[[@LINE-8]]:34: note: 'ReplayMemory' leaves 'memory_.states_' on the CPU
    // CHECK: :[[@LINE-29]]:17: note: created here by 'torch::zeros' on the CPU
    // CHECK: :[[@LINE-9]]:14: note: 'policy_' is moved to 'device_' here with '.to(device_)'
  }

private:
  torch::Device device_;
  Policy policy_;
  std::unique_ptr<ReplayMemory> memory_;
};

// One step removed: the memory is made in the constructor's body, with
// reset(new ...).
class ResetAgent {
public:
  explicit ResetAgent(torch::Device device) : device_(device) {
    memory_.reset(new ReplayMemory(512));
    policy_->to(device_);
  }
  torch::Tensor act() { return policy_->forward((*memory_).sample(1)); }
  // CHECK: :[[@LINE-1]]:49: warning: input '(*memory_).sample(1)' of 'policy_' is on the CPU (returned by '(*memory_).sample(1)') but the module is on 'device_'; move it with '(*memory_).sample(1).to(device_)' [libtorch-missing-target-migration]
  // CHECK: :[[@LINE-2]]:49: note: '(*memory_).sample(1)' returns it on the CPU
  // CHECK: :[[@LINE-6]]:23: note: 'ReplayMemory' leaves 'memory_.states_' on the CPU
  // CHECK: :[[@LINE-51]]:17: note: created here by 'torch::zeros' on the CPU
  // CHECK: :[[@LINE-7]]:14: note: 'policy_' is moved to 'device_' here with '.to(device_)'

private:
  torch::Device device_;
  Policy policy_;
  std::unique_ptr<ReplayMemory> memory_;
};

// Through a helper: a memory a function owns, handed to a helper that
// trains on it.
static torch::Tensor trainStep(ReplayMemory &memory, Policy &policy) {
  return policy->forward(memory.sample(64));
  // CHECK: :[[@LINE-1]]:10: warning: 'memory.sample(64)' is on the CPU (returned by 'memory.sample(64)') but 'policy' is on 'device' (passed by 'train'); 'policy' needs all its tensor operands on one device [libtorch-mixed-device-operands]
  // CHECK: :[[@LINE-2]]:26: note: 'memory.sample(64)' returns it on the CPU
  // CHECK: :[[@LINE+12]]:24: note: 'memory.states_' is on the CPU here: passed by 'train'
  // CHECK: :[[@LINE+8]]:17: note: 'ReplayMemory' leaves 'memory.states_' on the CPU
  // CHECK: :[[@LINE+10]]:33: note: 'policy' is on 'device' here: passed by 'train'
  // CHECK: :[[@LINE+5]]:11: note: 'policy' is moved to 'device' here with '.to(device)'
}

void train(torch::Device device) {
  Policy policy;
  policy->to(device);
  auto memory = std::make_unique<ReplayMemory>(1000);
  for (int step = 0; step < 100; ++step) {
    memory->add(torch::rand({4}));
    auto q = trainStep(*memory, policy);
  }
}

// Not findings: a memory made on the agent's device; one handed to code the
// analysis cannot see, which may build it anew on the device (by its raw
// pointer, or the pointer itself).
class DeviceAgent {
public:
  explicit DeviceAgent(torch::Device device)
      : device_(device),
        memory_(std::make_unique<ReplayMemory>(
            10000, torch::TensorOptions().device(device))) {
    policy_->to(device_);
  }
  void learn() { auto q = policy_->forward(memory_->sample(32)); }

private:
  torch::Device device_;
  Policy policy_;
  std::unique_ptr<ReplayMemory> memory_;
};

void rebuildOn(ReplayMemory *memory, torch::Device device);
void replaceOn(std::unique_ptr<ReplayMemory> &memory, torch::Device device);

void trainElsewhere(torch::Device device) {
  Policy policy;
  policy->to(device);
  auto memory = std::make_unique<ReplayMemory>(1000);
  rebuildOn(memory.get(), device);
  auto q = policy->forward(memory->sample(8));
  auto other = std::make_unique<ReplayMemory>(1000);
  replaceOn(other, device);
  auto r = policy->forward(other->sample(8));
}
