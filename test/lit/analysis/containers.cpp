// Containers of tensors hold what their elements are: a std::vector, deque
// or list of tensors (or of tuples of tensors) has one value, the join of
// what was put in it: by its braced initialiser, push_back, emplace_back,
// insert, `v[i] = x`, a reference to an element, or a standard algorithm
// that copies elements in (`std::sample` into a back_inserter). Elements
// come out through `v[i]`, `at`, `front`, `back`, range-for and
// `torch::stack`/`torch::cat`. Shaped like the replay buffers and rollout
// lists of public DQN and A2C ports.
// RUN: %check_lint %s --checks='%bug_checks' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// The fix-its move the stacked batch, as written.
// RUN: cp %s %t.cpp
// RUN: %clang_tidy %t.cpp --fix --checks='-*,libtorch-missing-target-migration' -- %torch_flags > %t.out
// RUN: grep -v 'FIXED:' %t.cpp | FileCheck %s --check-prefix=FIXED
#include <torch/torch.h>

#include <algorithm>
#include <deque>
#include <random>
#include <tuple>

struct QNetImpl : torch::nn::Module {
  QNetImpl() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(QNet);

// The shape: transitions kept as tuples in a deque, a batch drawn with
// std::sample, the states stacked by the trainer. The environment's
// observations are host tensors; the network is on the GPU.
using Transition = std::tuple<torch::Tensor, torch::Tensor, torch::Tensor>;

class ExperienceReplay {
public:
  explicit ExperienceReplay(size_t capacity) : capacity_(capacity) {}
  void push(torch::Tensor state, torch::Tensor next_state,
            torch::Tensor reward) {
    if (buffer_.size() >= capacity_)
      buffer_.pop_front();
    buffer_.push_back(std::make_tuple(state, next_state, reward));
  }
  std::vector<Transition> sample(size_t n) {
    std::vector<Transition> batch;
    std::sample(buffer_.begin(), buffer_.end(), std::back_inserter(batch), n,
                std::mt19937{std::random_device{}()});
    return batch;
  }

private:
  std::deque<Transition> buffer_;
  size_t capacity_;
};

torch::Tensor observe() { return torch::rand({4}); }

void train() {
  torch::Device device(torch::kCUDA);
  QNet net;
  net->to(device);
  ExperienceReplay memory(10000);
  auto state = observe();
  for (int step = 0; step < 1000; ++step) {
    auto next = observe();
    memory.push(state, next, torch::ones({1}));
    state = next;
    std::vector<torch::Tensor> states;
    for (auto &t : memory.sample(32))
      states.push_back(std::get<0>(t));
    auto q = net->forward(torch::stack(states));
    // CHECK: :[[@LINE-1]]:27: warning: input 'torch::stack(states)' of 'net' is on the CPU (returned by 'memory.sample(32)') but the module is on 'device'; move it with 'torch::stack(states).to(device)' [libtorch-missing-target-migration]
    // CHECK: :[[@LINE-4]]:20: note: 'memory.sample(32)' returns it on the CPU
    // CHECK: :[[@LINE-11]]:16: note: 'observe()' returns it on the CPU
    // CHECK: :[[@LINE-19]]:34: note: created here by 'torch::rand' on the CPU
    // CHECK: :[[@LINE-15]]:8: note: 'net' is moved to 'device' here with '.to(device)'
    // FIXED: auto q = net->forward(torch::stack(states).to(device));
  }
}

// One step removed: a rollout's rewards kept as 0-dim host tensors, each
// mixing freely with device tensors, stacked into a 1-D host tensor, which
// does not.
void advantage(torch::Device device) {
  QNet critic;
  critic->to(device);
  std::vector<torch::Tensor> rewards, values;
  for (int t = 0; t < 5; ++t) {
    auto v = critic->forward(torch::rand({1, 4}).to(device));
    values.push_back(v.detach());
    rewards.push_back(torch::tensor(1.0f) * v.sum().detach().cpu());
  }
  auto advantages = torch::stack(rewards) - torch::cat(values);
  // CHECK: :[[@LINE-1]]:21: warning: 'torch::stack(rewards)' is on the CPU (built from host values by 'torch::tensor') but 'torch::cat(values)' is on 'device'; move it with 'torch::stack(rewards).to(device)' as well [libtorch-missing-target-migration]
  // CHECK: :[[@LINE-4]]:23: note: created here by 'torch::tensor' from host values
  // CHECK: :[[@LINE-7]]:14: note: output of 'critic', on 'device'
  // CHECK: :[[@LINE-11]]:11: note: 'critic' is moved to 'device' here with '.to(device)'
  // FIXED: auto advantages = torch::stack(rewards).to(device) - torch::cat(values);
}

// Through a helper: frames gathered by a helper, each copied out of a host
// buffer; the program stacks what it returns.
std::vector<torch::Tensor> loadFrames(std::vector<float> &pixels, int n) {
  std::vector<torch::Tensor> frames;
  for (int i = 0; i < n; ++i)
    frames.push_back(torch::from_blob(pixels.data(), {4}).clone());
  return frames;
}

void play(std::vector<float> &pixels) {
  torch::Device device(torch::kCUDA);
  QNet net;
  net->to(device);
  auto frames = loadFrames(pixels, 4);
  auto q = net->forward(frames.back());
  // CHECK: :[[@LINE-1]]:25: warning: input 'frames.back()' of 'net' is on the CPU (returned by 'loadFrames(pixels, 4)') but the module is on 'device'; move it with 'frames.back().to(device)' [libtorch-missing-target-migration]
  // CHECK: :[[@LINE-3]]:17: note: 'loadFrames(pixels, 4)' returns it on the CPU
  // CHECK: :[[@LINE-12]]:22: note: created here by 'torch::from_blob' over host memory
  // CHECK: :[[@LINE-6]]:8: note: 'net' is moved to 'device' here with '.to(device)'
  // FIXED: auto q = net->forward(frames.back().to(device));
}

// Through a helper, the other way: the losses a caller collects as 0-dim
// host tensors, weighted in a helper by weights its caller put on the
// device. Each loss mixes freely; their stack does not.
static torch::Tensor weightedSum(const std::vector<torch::Tensor> &losses,
                                 const torch::Tensor &weights) {
  return (torch::stack(losses) * weights).sum();
  // CHECK: :[[@LINE-1]]:32: warning: 'torch::stack(losses)' is on the CPU (passed by 'multiTask') but 'weights' is on 'device' (passed by 'multiTask'); '*' needs all its tensor operands on one device [libtorch-mixed-device-operands]
  // CHECK: :[[@LINE+11]]:28: note: 'losses' is on the CPU here: passed by 'multiTask'
  // CHECK: :[[@LINE+9]]:22: note: created here by 'torch::rand' on the CPU
  // CHECK: :[[@LINE+9]]:36: note: 'weights' is on 'device' here: passed by 'multiTask'
  // CHECK: :[[@LINE+4]]:18: note: created here by 'torch::ones' on 'device'
}

void multiTask(torch::Device device) {
  auto weights = torch::ones({3}, device);
  std::vector<torch::Tensor> losses;
  for (int task = 0; task < 3; ++task)
    losses.push_back(torch::rand({}));
  auto total = weightedSum(losses, weights);
}

// Not findings. A buffer that moves what it keeps to its own device; a
// batch moved before use; elements moved in place through a reference, an
// element reference or an iterator; a container emptied and refilled on the
// device; slots of a sized vector filled with device outputs; host tensors
// stacked and used on the host; a container handed to code the analysis
// cannot see; elements on different devices (which is where is unknown).
class DeviceReplay {
public:
  explicit DeviceReplay(torch::Device device) : device_(device) {}
  void push(const torch::Tensor &state) {
    states_.push_back(state.to(device_));
  }
  torch::Tensor sample() const { return torch::stack(states_); }

private:
  torch::Device device_;
  std::vector<torch::Tensor> states_;
};

void fillSomehow(std::vector<torch::Tensor> &tensors);

void negatives(torch::Device device, torch::Tensor cpuState) {
  QNet net;
  net->to(device);
  DeviceReplay replay(device);
  for (int step = 0; step < 10; ++step) {
    replay.push(observe());
    auto q = net->forward(replay.sample());
  }
  std::vector<torch::Tensor> batch{observe(), observe()};
  auto moved = net->forward(torch::stack(batch).to(device));
  for (auto &t : batch)
    t = t.to(device);
  auto inPlace = net->forward(torch::stack(batch));
  std::vector<torch::Tensor> viaReference{observe()};
  auto &first = viaReference[0];
  first = first.to(device);
  auto referenced = net->forward(viaReference[0]);
  std::vector<torch::Tensor> transformed{observe()};
  std::transform(transformed.begin(), transformed.end(), transformed.begin(),
                 [&](const torch::Tensor &t) { return t.to(device); });
  auto viaTransform = net->forward(transformed.front());
  std::vector<torch::Tensor> refilled{observe()};
  refilled.clear();
  refilled.push_back(observe().to(device));
  auto fresh = net->forward(refilled.front());
  std::vector<torch::Tensor> outputs(3);
  for (int i = 0; i < 3; ++i)
    outputs[i] = net->forward(observe().to(device)).detach();
  auto spread = torch::cat(outputs) - torch::ones({6}, device);
  std::vector<torch::Tensor> host{observe(), observe()};
  auto onHost = torch::cat(host) * 2 + torch::ones({8});
  std::vector<torch::Tensor> unseen{observe()};
  fillSomehow(unseen);
  auto filled = net->forward(unseen[0]);
  std::vector<torch::Tensor> mixed{observe()};
  mixed.push_back(cpuState.to(device));
  auto either = net->forward(mixed.at(1));
}

// Objects of the user's in containers: a transition struct kept in a deque.
// Each field of the elements is followed on its own: the observation is
// left on the host, the next observation moved.
struct Experience {
  torch::Tensor state;
  int64_t action;
  float reward;
  torch::Tensor nextState;
  bool done;
};

class ReplayMemory {
public:
  void push(const Experience &experience) { memory_.push_back(experience); }
  std::vector<Experience> sample(size_t n) {
    std::vector<Experience> batch;
    std::sample(memory_.begin(), memory_.end(), std::back_inserter(batch), n,
                std::mt19937{std::random_device{}()});
    return batch;
  }
  const Experience &latest() const { return memory_.back(); }

private:
  std::deque<Experience> memory_;
};

void learn(torch::Device device) {
  QNet net;
  net->to(device);
  ReplayMemory memory;
  auto state = observe();
  for (int step = 0; step < 1000; ++step) {
    auto next = observe();
    memory.push(Experience{state, 0, 1.0f, next.to(device), false});
    state = next;
    std::vector<torch::Tensor> states, nexts;
    for (const auto &experience : memory.sample(32)) {
      states.push_back(experience.state);
      nexts.push_back(experience.nextState);
    }
    auto q = net->forward(torch::stack(states));
    // CHECK: :[[@LINE-1]]:27: warning: input 'torch::stack(states)' of 'net' is on the CPU (returned by 'memory.sample(32)') but the module is on 'device'; move it with 'torch::stack(states).to(device)' [libtorch-missing-target-migration]
    // CHECK: :[[@LINE-6]]:35: note: 'memory.sample(32)' returns it on the CPU
    // CHECK: :[[@LINE-13]]:16: note: 'observe()' returns it on the CPU
    // CHECK: :[[@LINE-192]]:34: note: created here by 'torch::rand' on the CPU
    // CHECK: :[[@LINE-17]]:8: note: 'net' is moved to 'device' here with '.to(device)'
    // FIXED: auto q = net->forward(torch::stack(states).to(device));
    auto target = net->forward(torch::stack(nexts));
    auto latest = net->forward(memory.latest().nextState);
  }
}

// Not findings: transitions moved as they are stored; fields moved in place
// through a reference to the element.
void learnMoved(torch::Device device) {
  QNet net;
  net->to(device);
  ReplayMemory memory;
  for (int step = 0; step < 1000; ++step) {
    memory.push(Experience{observe().to(device), 0, 1.0f, observe(), false});
    auto batch = memory.sample(32);
    auto q = net->forward(batch.front().state);
    for (auto &experience : batch)
      experience.nextState = experience.nextState.to(device);
    auto target = net->forward(batch[0].nextState);
  }
}
