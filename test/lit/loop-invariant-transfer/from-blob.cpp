// A tensor re-wrapped each iteration from the same host buffer
// (`torch::from_blob(buf.data(), ...)`) is that buffer: copying it to the
// device in every iteration is loop-invariant while the buffer does not
// change in the loop. A buffer the loop refills is not.
// RUN: %check_lint %s --checks='-*,libtorch-loop-invariant-transfer' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>
#include <array>
#include <vector>

void fillObservation(std::vector<float> &observation);

void rollout(torch::nn::Linear policy, torch::Device device, int steps) {
  std::vector<float> goal(4, 1.0f);
  float bias[4] = {0, 0, 0, 1};
  std::vector<float> observation(4);
  for (int step = 0; step < steps; ++step) {
    auto target = torch::from_blob(goal.data(), {4}).to(device);
    // CHECK: :[[@LINE-1]]:54: warning: '.to()' copies 'goal' to a device in every iteration, but 'goal' does not change in the loop; move it once before the loop [libtorch-loop-invariant-transfer]
    // CHECK: :[[@LINE-6]]:22: note: 'goal' is declared before the loop
    // CHECK: :[[@LINE-3]]:19: note: 'torch::from_blob' wraps 'goal' again here in every iteration
    // CHECK: :[[@LINE-5]]:3: note: in this loop
    auto wrapped = torch::from_blob(&bias[0], {4});
    auto offset = wrapped.to(device);
    // CHECK: :[[@LINE-1]]:27: warning: '.to()' copies 'bias' to a device in every iteration
    // CHECK: :[[@LINE-3]]:20: note: 'torch::from_blob' wraps 'bias' again here in every iteration
    // Refilled in every iteration: not invariant.
    fillObservation(observation);
    auto obs = torch::from_blob(observation.data(), {4}).to(device);
    auto action = policy(obs + target + offset);
  }
}

void negatives(torch::Device device, int steps) {
  std::vector<float> frame(4);
  std::array<float, 4> scratch{};
  for (int step = 0; step < steps; ++step) {
    // Written through before it is wrapped.
    frame[0] = static_cast<float>(step);
    auto x = torch::from_blob(frame.data(), {4}).to(device);
    scratch.data()[1] = 2.0f;
    auto y = torch::from_blob(scratch.data(), {4}).to(device);
    // Declared in the loop: fresh each iteration.
    std::vector<float> local(4, 0.5f);
    auto z = torch::from_blob(local.data(), {4}).to(device);
  }
}
