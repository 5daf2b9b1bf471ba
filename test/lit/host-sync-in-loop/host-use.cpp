// What the host does with the value decides whether a sync per iteration is
// worth a finding and which advice fits. A total or a log can wait for the
// logging interval; an assertion can move into the logging branch; a size,
// a branch or the program's next step needs the value now, so the sync is
// the point of the code. An evaluation pass (no-grad, moving each batch to
// the device) reads each batch's result by design, once per epoch or run.
// Shaped like the training and test loops of public tutorials, a captioning
// decoder and RL agents.
// RUN: %check_lint %s --checks='-*,libtorch-host-sync-in-loop' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>
#include <cmath>
#include <iostream>

using torch::indexing::None;
using torch::indexing::Slice;

struct Env {
  torch::Tensor step(int64_t action);
};

int64_t liveRows(const torch::Tensor &lengths, int64_t i) {
  return (lengths > i).sum().item<int64_t>();
}

float lossValue(const torch::Tensor &loss) { return loss.item<float>(); }

void train(torch::nn::Linear model, std::vector<torch::data::Example<>> &loader,
           torch::optim::SGD &optimizer, torch::Device device) {
  model->to(device);
  double running_loss = 0;
  for (auto &batch : loader) {
    auto loss = torch::mse_loss(model(batch.data.to(device)),
                                batch.target.to(device));
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    // A running total, read every step.
    running_loss += loss.item<double>() * batch.data.size(0);
    // CHECK: :[[@LINE-1]]:26: warning: '.item()' copies 'loss' (on 'device') to the host and waits for the device in every iteration; accumulate on the device and read the value once per logging interval
    // An assertion: the check can move to the logging branch.
    AT_ASSERT(!std::isnan(loss.item<float>()));
    // CHECK: :[[@LINE-1]]:32: warning: '.item()' copies 'loss' (on 'device') to the host and waits for the device in every iteration; move the check into the branch that logs, so that it runs once per logging interval
    // One step removed: the value is checked through a variable.
    float value = loss.item<float>();
    // CHECK: :[[@LINE-1]]:24: warning: '.item()' copies 'loss' (on 'device') to the host and waits for the device in every iteration; move the check into the branch that logs
    TORCH_CHECK(std::isfinite(value), "loss diverged");
    // Through a helper that returns the number.
    TORCH_CHECK(lossValue(loss) < 1e6, "loss exploded");
    // CHECK: :[[@LINE-1]]:17: warning: '.item()' copies 'loss' (on 'device') to the host inside 'lossValue' and waits for the device in every iteration; move the check into the branch that logs
  }
}

// The host needs the value now: a size for the next op, directly, through a
// variable, through a helper; a branch; an environment's next step.
torch::Tensor decode(const torch::Tensor &h, const torch::Tensor &lengths,
                     int64_t steps, torch::Device device) {
  auto on_device = lengths.to(device);
  auto out = torch::zeros({h.size(0)}, device);
  for (int64_t i = 0; i != steps; ++i) {
    const auto batch_size_t = (on_device > i).sum().item<int64_t>();
    auto rows = h.index({Slice(None, batch_size_t)});
    auto first = h.narrow(0, 0, (on_device > i).sum().item<int64_t>());
    auto live = liveRows(on_device, i);
    out.narrow(0, 0, live).add_(rows.sum(1) + first.sum(1));
    if ((out > 100).any().item<bool>())
      break;
  }
  return out;
}

void play(torch::nn::Linear policy, Env &env, torch::Device device) {
  policy->to(device);
  auto state = torch::zeros({4});
  for (int step = 0; step < 1000; ++step) {
    auto action = policy(state.to(device)).argmax().item<int64_t>();
    state = env.step(action);
  }
}

// nonzero() syncs to size its result: that is what it computes.
void levels(std::vector<torch::Tensor> &scores, torch::Device device) {
  for (auto &level : scores) {
    auto keep = (level.to(device) > 0.5).nonzero();
    std::cout << keep.size(0) << "\n";
  }
}

// An evaluation pass: no-grad, and each batch moved to the device.
void test(torch::nn::Linear model, std::vector<torch::data::Example<>> &loader,
          torch::Device device) {
  model->eval();
  torch::NoGradGuard no_grad;
  double running_loss = 0;
  size_t num_correct = 0;
  for (auto &batch : loader) {
    auto output = model(batch.data.to(device));
    auto target = batch.target.to(device);
    running_loss += torch::mse_loss(output, target).item<double>();
    num_correct += output.argmax(1).eq(target).sum().item<int64_t>();
  }
  std::cout << running_loss << num_correct << "\n";
}

// Under InferenceMode, reading through a helper.
void validate(torch::nn::Linear model, std::vector<torch::Tensor> &inputs,
              torch::Device device) {
  c10::InferenceMode guard;
  float total = 0;
  for (auto &x : inputs)
    total += lossValue(model(x.to(device)).sum());
}

// One loop for both passes: the testing branch takes no training step, and
// reads its total once per batch of a pass that runs once per epoch.
void run(torch::nn::Linear model, std::vector<torch::data::Example<>> &loader,
         torch::optim::SGD &optimizer, torch::Device device, bool training) {
  model->to(device);
  double avg_loss = 0;
  for (auto &batch : loader) {
    auto loss = torch::mse_loss(model(batch.data.to(device)),
                                batch.target.to(device));
    if (training) {
      loss.backward();
      optimizer.step();
    } else {
      avg_loss += loss.item<float>();
    }
    double seen = loss.item<double>();
    // CHECK: :[[@LINE-1]]:24: warning: '.item()' copies 'loss' (on 'device') to the host and waits for the device in every iteration; accumulate on the device
  }
}
