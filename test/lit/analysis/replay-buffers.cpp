// Objects that hold tensors: a replay buffer, a sampler, a storage class of
// the user's. What its constructor leaves in its tensor fields is a fact of
// each object, and its methods hand that out: `sample()` returns rows of
// storage the constructor allocated, on the CPU unless it was given a
// device. Fed to a network on the GPU, that is the bug a public DQN fix
// commit fixed.
// RUN: %check_lint %s --checks='%bug_checks' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// The fix-its move what sample() returns, spelled as written (a binding
// passed by value to forward() is copied, and needs no parentheses).
// RUN: cp %s %t.cpp
// RUN: %clang_tidy %t.cpp --fix --checks='-*,libtorch-missing-target-migration' -- %torch_flags > %t.out
// RUN: grep -v 'FIXED:' %t.cpp | FileCheck %s --check-prefix=FIXED
#include <torch/torch.h>

struct QNet : torch::nn::Module {
  QNet() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

// The shape: storage allocated in the constructor's initialisers with the
// options it is given (none: the CPU), rows written in place by add(), a
// random batch of rows handed out by sample().
class ReplayBuffer {
public:
  ReplayBuffer(int64_t capacity, int64_t obs_dim,
               torch::TensorOptions options = torch::TensorOptions())
      : states_(torch::zeros({capacity, obs_dim}, options)),
        rewards_(torch::zeros({capacity}, options)), capacity_(capacity) {}
  void add(const torch::Tensor &state, float reward) {
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

void train() {
  torch::Device device(torch::kCUDA);
  auto net = std::make_shared<QNet>();
  net->to(device);
  ReplayBuffer buffer(10000, 4);
  for (int step = 0; step < 1000; ++step) {
    buffer.add(torch::randn({4}), 1.0f);
    auto [states, rewards] = buffer.sample(32);
    auto q = net->forward(states);
    // CHECK: :[[@LINE-1]]:27: warning: input 'states' of 'net' is on the CPU (returned by 'buffer.sample(32)') but the module is on 'device'; move it with 'states.to(device)' [libtorch-missing-target-migration]
    // CHECK: :[[@LINE-3]]:30: note: 'buffer.sample(32)' returns it on the CPU
    // CHECK: :[[@LINE-7]]:16: note: 'ReplayBuffer' leaves 'buffer.states_' on the CPU
    // CHECK: :[[@LINE-30]]:17: note: created here by 'torch::zeros' on the CPU
    // FIXED: auto q = net->forward(states.to(device));
  }
}

// One step removed: a sampler whose constructor body calls reset(), which
// allocates the storage; window() hands out a slice of it, which meets a
// device tensor in an op.
class EpisodeStore {
public:
  explicit EpisodeStore(int64_t n) { reset(n); }
  void reset(int64_t n) { frames_ = torch::empty({n, 4}); }
  torch::Tensor window(int64_t i) const { return frames_.slice(0, i, i + 8); }

private:
  torch::Tensor frames_;
};

void replay(torch::Tensor goal) {
  auto target = goal.cuda();
  EpisodeStore store(64);
  for (int64_t i = 0; i < 56; ++i) {
    auto distance = store.window(i) - target;
    // CHECK: :[[@LINE-1]]:37: warning: 'store.window(i)' is on the CPU (returned by 'store.window(i)') but 'target' is on 'cuda' (moved with '.cuda()'); '-' needs all its tensor operands on one device [libtorch-mixed-device-operands]
  }
}

// Through a helper: sample() gathers its rows with a helper of the file.
static torch::Tensor pick(const torch::Tensor &rows, const torch::Tensor &idx) {
  return rows.index_select(0, idx);
}
class PrioritizedBuffer {
public:
  PrioritizedBuffer(int64_t n) : obs_(torch::zeros({n, 4})) {}
  torch::Tensor sample(int64_t batch) {
    return pick(obs_, torch::randint(n(), {batch}, torch::kLong));
  }
  int64_t n() const { return obs_.size(0); }

private:
  torch::Tensor obs_;
};

void learn(torch::Device device) {
  auto net = std::make_shared<QNet>();
  net->to(device);
  PrioritizedBuffer buffer(512);
  for (int step = 0; step < 100; ++step) {
    auto q = net->forward(buffer.sample(32));
    // CHECK: :[[@LINE-1]]:27: warning: input 'buffer.sample(32)' of 'net' is on the CPU (returned by 'buffer.sample(32)') but the module is on 'device'; move it with 'buffer.sample(32).to(device)' [libtorch-missing-target-migration]
    // FIXED: auto q = net->forward(buffer.sample(32).to(device));
  }
}

// Not findings: storage given the device; rows moved by the caller; a
// buffer changed by code this file cannot see; a buffer filled by a method
// with tensors the caller moved.
class Holder {
public:
  void set(torch::Tensor x) { x_ = x; }
  torch::Tensor get() const { return x_; }

private:
  torch::Tensor x_;
};
void moveToDevice(ReplayBuffer &buffer, torch::Device device);

void negatives(torch::Device device) {
  auto net = std::make_shared<QNet>();
  net->to(device);
  ReplayBuffer on_device(100, 4, torch::TensorOptions().device(device));
  auto [a, ra] = on_device.sample(8);
  auto qa = net->forward(a);
  ReplayBuffer on_host(100, 4);
  auto [b, rb] = on_host.sample(8);
  auto qb = net->forward(b.to(device));
  ReplayBuffer moved(100, 4);
  moveToDevice(moved, device);
  auto [c, rc] = moved.sample(8);
  auto qc = net->forward(c);
  Holder holder;
  holder.set(torch::randn({8, 4}).to(device));
  auto qd = net->forward(holder.get());
  // A new buffer assigned over the first: its storage is on the device.
  ReplayBuffer renewed(100, 4);
  renewed = ReplayBuffer(100, 4, torch::TensorOptions().device(device));
  auto qe = net->forward(renewed.sample(8).first);
  ReplayBuffer copied(100, 4);
  copied = on_device;
  auto qf = net->forward(copied.sample(8).first);
}

// Filled through a pointer by a helper of the file: its summary does not
// say what it leaves in the buffer's fields, so they are unknown after it.
static void refillOnDevice(ReplayBuffer *buffer, torch::Device device) {
  *buffer = ReplayBuffer(100, 4, torch::TensorOptions().device(device));
}
void pointerNegative(torch::Device device) {
  auto net = std::make_shared<QNet>();
  net->to(device);
  ReplayBuffer buffer(100, 4);
  refillOnDevice(&buffer, device);
  auto q = net->forward(buffer.sample(8).first);
}
