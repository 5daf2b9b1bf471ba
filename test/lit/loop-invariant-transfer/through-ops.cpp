// A tensor that is the same in every iteration stays so through the ops
// that give the same result for the same operands: a host image wrapped by
// from_blob, permuted to CHW and batched, then moved in every iteration, is
// one loop-invariant copy, whether the chain is written in one expression
// or through the loop's own variables. A tensor built from constants in
// the loop (torch::tensor, torch::ones) is the same in every iteration too,
// and so is one built in a helper that every iteration calls.
// RUN: %check_lint %s --checks='-*,libtorch-loop-invariant-transfer' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>
#include <vector>

using Loader = std::vector<torch::data::Example<>>;

// The shape: a goal image kept on the host, wrapped, permuted and moved in
// every step of the loop.
void trainTowardsGoal(torch::nn::Conv2d net, Loader &loader,
                      std::vector<float> &goal, torch::Device device) {
  for (auto &batch : loader) {
    auto target = torch::from_blob(goal.data(), {32, 32, 3})
                      .permute({2, 0, 1})
                      .unsqueeze(0)
                      .to(device);
                      // CHECK: :[[@LINE-1]]:24: warning: '.to()' copies 'goal' to a device in every iteration, but 'goal' does not change in the loop; move it once before the loop [libtorch-loop-invariant-transfer]
                      // CHECK: :[[@LINE-7]]:43: note: 'goal' is declared before the loop
                      // CHECK: :[[@LINE-6]]:19: note: 'torch::from_blob' wraps 'goal' again here in every iteration
                      // CHECK: :[[@LINE-8]]:3: note: in this loop
    auto loss = torch::mse_loss(net(batch.data.to(device)), target);
  }
}

// One step removed: the same chain through the loop's own variables, and
// a dtype conversion on the way.
void trainTowardsGoalInSteps(torch::nn::Conv2d net, Loader &loader,
                             std::vector<uint8_t> &goal,
                             torch::Device device) {
  for (auto &batch : loader) {
    auto wrapped = torch::from_blob(goal.data(), {32, 32, 3}, torch::kByte);
    auto chw = wrapped.permute({2, 0, 1}).contiguous();
    auto scaled = chw.to(torch::kFloat).div(255.0);
    auto loss = torch::mse_loss(net(batch.data.to(device)),
                                scaled.to(device));
                                // CHECK: :[[@LINE-1]]:40: warning: '.to()' copies 'goal' to a device in every iteration, but 'goal' does not change in the loop; move it once before the loop [libtorch-loop-invariant-transfer]
                                // CHECK: :[[@LINE-9]]:52: note: 'goal' is declared before the loop
                                // CHECK: :[[@LINE-7]]:20: note: 'torch::from_blob' wraps 'goal' again here in every iteration
                                // CHECK: :[[@LINE-9]]:3: note: in this loop
  }
}

// A view of a tensor declared before the loop, and constants built into a
// tensor in each iteration.
void trainWeighted(torch::nn::Linear net, Loader &loader, torch::Tensor mean,
                   torch::Device device) {
  for (auto &batch : loader) {
    auto centred = batch.data.to(device) - mean.view({1, -1}).to(device);
    // CHECK: :[[@LINE-1]]:63: warning: '.to()' copies 'mean' to a device in every iteration, but 'mean' does not change in the loop; move it once before the loop [libtorch-loop-invariant-transfer]
    // CHECK: :[[@LINE-5]]:73: note: 'mean' is declared before the loop
    // CHECK: :[[@LINE-4]]:3: note: in this loop
    auto weights = torch::tensor({0.2, 0.8}).to(device);
    // CHECK: :[[@LINE-1]]:46: warning: '.to()' copies a tensor that every iteration builds the same way to a device; build it on the device once, before the loop [libtorch-loop-invariant-transfer]
    // CHECK: :[[@LINE-2]]:20: note: 'torch::tensor' builds the same tensor here each time
    // CHECK: :[[@LINE-8]]:3: note: in this loop
    auto loss = torch::nll_loss(net(centred), batch.target.to(device),
                                weights);
  }
}

// Through a helper: the loss helper every step calls builds its class
// weights from constants and copies them in every call.
static torch::Tensor weightedLoss(const torch::Tensor &out,
                                  const torch::Tensor &target,
                                  torch::Device device) {
  auto weights = torch::tensor({1.0, 5.0}, torch::kFloat).to(device);
  // CHECK: :[[@LINE-1]]:59: warning: '.to()' copies a tensor built from constants to a device each time 'weightedLoss' runs, once per iteration of a loop; build it on the device once, as a member or before the loop [libtorch-loop-invariant-transfer]
  // CHECK: :[[@LINE-2]]:18: note: 'torch::tensor' builds the same tensor here each time
  // CHECK: :[[@LINE+7]]:17: note: 'weightedLoss' is called in a loop here
  return torch::nll_loss(out, target, weights);
}

void trainWithHelper(torch::nn::Linear net, Loader &loader,
                     torch::Device device) {
  for (auto &batch : loader) {
    auto loss = weightedLoss(net(batch.data.to(device)),
                             batch.target.to(device), device);
  }
}

// Through a helper that copies what it is given: the same weights in every
// iteration; the batch, different each time, is no finding.
static torch::Tensor toDevice(const torch::Tensor &t, torch::Device device) {
  return t.contiguous().to(device);
}

void trainWithCopyHelper(torch::nn::Linear net, Loader &loader,
                         torch::Tensor weights, torch::Device device) {
  for (auto &batch : loader) {
    auto out = net(toDevice(batch.data, device));
    auto loss = torch::nll_loss(out, toDevice(batch.target, device),
                                toDevice(weights, device));
                                // CHECK: :[[@LINE-1]]:33: warning: 'toDevice' copies 'weights' to a device in every iteration, but 'weights' does not change in the loop; move it once before the loop [libtorch-loop-invariant-transfer]
                                // CHECK: :[[@LINE-6]]:40: note: 'weights' is declared before the loop
                                // CHECK: :[[@LINE-11]]:25: note: '.to()' copies parameter 't' here
                                // CHECK: :[[@LINE-7]]:3: note: in this loop
  }
}

// A module's forward() runs once per batch: a constant built and copied
// there is copied for every batch.
struct ScaledNet : torch::nn::Module {
  torch::nn::Linear fc{4, 2};
  torch::Tensor forward(torch::Tensor x) {
    auto scale = torch::ones({1, 2}).mul(0.5).to(x.device());
    // CHECK: :[[@LINE-1]]:47: warning: '.to()' copies a tensor built from constants to a device each time 'forward' runs, once per batch; build it on the device once, as a member or before the loop [libtorch-loop-invariant-transfer]
    // CHECK: :[[@LINE-2]]:18: note: 'torch::ones' builds the same tensor here each time
    // Written in place afterwards: each call needs its own.
    auto count = torch::tensor({0}).to(x.device());
    count[0] = x.size(0);
    return fc(x) * scale + count;
  }
};

// Not the same in every iteration: a new draw, a size from the counter, a
// tensor made to be trained, a copy to each device of a list, an image the
// loop reads into before wrapping it.
void notInvariant(torch::nn::Linear net, Loader &loader,
                  std::vector<float> &frame, std::vector<torch::Device> &devices,
                  torch::Device device) {
  auto w = torch::randn({4, 2}, torch::requires_grad());
  for (int i = 0; i < 100; ++i) {
    auto noise = torch::randn({4}).to(device);
    auto ramp = torch::arange(i).to(device);
    auto trained = w.to(device);
    std::fill(frame.begin(), frame.end(), float(i));
    auto image = torch::from_blob(frame.data(), {4}).to(device);
  }
  auto bias = torch::ones({2});
  for (auto &d : devices)
    auto copy = bias.to(d);
}

// A hidden state reset once per epoch costs next to nothing; one reset for
// every batch is a copy per step, even though the step replaces it. A zero
// buffer that each iteration fills in place must be made again each time.
void recurrent(torch::nn::LSTM lstm, Loader &loader, torch::Device device) {
  for (int epoch = 0; epoch < 10; ++epoch) {
    auto epochState = torch::zeros({1, 8, 16}).to(device);
    for (auto &batch : loader) {
      auto h = torch::zeros({1, 8, 16}).to(device);
      // CHECK: :[[@LINE-1]]:41: warning: '.to()' copies a tensor that every iteration builds the same way to a device; build it on the device once, before the loop [libtorch-loop-invariant-transfer]
      // CHECK: :[[@LINE-2]]:16: note: 'torch::zeros' builds the same tensor here each time
      // CHECK: :[[@LINE-4]]:5: note: in this loop
      auto c = torch::zeros({1, 8, 16}).to(device);
      // CHECK: :[[@LINE-1]]:41: warning: '.to()' copies a tensor that every iteration builds the same way to a device; build it on the device once, before the loop [libtorch-loop-invariant-transfer]
      // CHECK: :[[@LINE-2]]:16: note: 'torch::zeros' builds the same tensor here each time
      // CHECK: :[[@LINE-8]]:5: note: in this loop
      auto out = lstm->forward(batch.data.to(device), std::make_tuple(h, c));
      h = std::get<0>(std::get<1>(out));
      auto counts = torch::zeros({10}).to(device);
      counts.index_put_({batch.target.to(device)}, 1.0);
      auto onehot = torch::zeros({8, 10}).to(device);
      onehot[0] = 1;
    }
  }
}

// A mask sized by a tensor the loop over classes does not change is the
// same for every class (the sizes are read off 'label'; the mask is not
// 'label'); one filled with the class is not.
void perClassAccuracy(torch::nn::Linear net, Loader &loader,
                      torch::Device device, int64_t classes) {
  for (auto &batch : loader) {
    auto label = batch.target.to(device);
    for (int64_t c = 0; c < classes; ++c) {
      auto twos = torch::full({label.size(0)}, 2, torch::kLong).to(device);
      // CHECK: :[[@LINE-1]]:65: warning: '.to()' copies a tensor that every iteration builds the same way to a device; build it on the device once, before the loop [libtorch-loop-invariant-transfer]
      // CHECK: :[[@LINE-2]]:19: note: 'torch::full' builds the same tensor here each time
      // CHECK: :[[@LINE-4]]:5: note: in this loop
      auto classMask = torch::full({label.size(0)}, c, torch::kLong).to(device);
    }
  }
}

// A helper called once, outside any loop, copies once.
static torch::Tensor classWeights(torch::Device device) {
  return torch::tensor({1.0, 2.0}).to(device);
}

void trainOnce(torch::nn::Linear net, Loader &loader, torch::Device device) {
  auto weights = classWeights(device);
  for (auto &batch : loader) {
    auto loss = torch::nll_loss(net(batch.data.to(device)),
                                batch.target.to(device), weights);
  }
}

// A member of the object whose method loops: the same in every iteration
// unless the loop assigns it or calls a method that may.
struct Trainer {
  torch::Tensor classWeights_ = torch::tensor({1.0, 3.0});
  torch::Tensor running_ = torch::zeros({2});
  torch::nn::Linear net{4, 2};

  void train(Loader &loader, torch::Device device) {
    for (auto &batch : loader) {
      auto loss = torch::nll_loss(net(batch.data.to(device)),
                                  batch.target.to(device),
                                  classWeights_.to(device));
                                  // CHECK: :[[@LINE-1]]:49: warning: '.to()' copies 'classWeights_' to a device in every iteration, but 'classWeights_' does not change in the loop; move it once before the loop [libtorch-loop-invariant-transfer]
                                  // CHECK: :[[@LINE-10]]:17: note: 'classWeights_' is a member of the object, which the loop does not change
                                  // CHECK: :[[@LINE-6]]:5: note: in this loop
    }
  }
  void track(const torch::Tensor &out) { running_ = running_ + out.cpu(); }
  void trainTracking(Loader &loader, torch::Device device) {
    for (auto &batch : loader) {
      auto out = net(batch.data.to(device));
      track(out);
      auto centred = out - running_.to(device);
    }
  }
  void trainReweighting(Loader &loader, torch::Device device) {
    for (auto &batch : loader) {
      auto w = classWeights_.to(device);
      classWeights_ = classWeights_ * 0.9;
    }
  }
};

// A module's tensor member may be a parameter that training changes.
struct Scaler : torch::nn::Module {
  torch::Tensor gain = register_parameter("gain", torch::ones({2}));
  void fit(Loader &loader, torch::Device device) {
    for (auto &batch : loader)
      auto g = gain.to(device);
  }
};

// A pass over the data called once per epoch builds its weights once per
// epoch: not a copy per step.
static void trainEpoch(torch::nn::Linear net, Loader &loader,
                       torch::Device device) {
  auto weights = torch::tensor({1.0, 2.0}).to(device);
  for (auto &batch : loader) {
    auto loss = torch::nll_loss(net(batch.data.to(device)),
                                batch.target.to(device), weights);
  }
}

void fit(torch::nn::Linear net, Loader &loader, torch::Device device) {
  for (int epoch = 0; epoch < 100; ++epoch)
    trainEpoch(net, loader, device);
}

// Helpers that are operators: a functor's call operator that builds its
// scale from constants, and an operator that copies a member of what it is
// given (a member of another object: not followed).
struct Scale {
  torch::Tensor w;
};
static torch::Tensor operator*(const Scale &s, torch::Device d) {
  return s.w.to(d);
}
struct ScaleBy {
  torch::Tensor operator()(const torch::Tensor &t, torch::Device d) const {
    return torch::tensor({0.5}).to(d) * t;
    // CHECK: :[[@LINE-1]]:33: warning: '.to()' copies a tensor built from constants to a device each time 'operator()' runs, once per iteration of a loop; build it on the device once, as a member or before the loop [libtorch-loop-invariant-transfer]
    // CHECK: :[[@LINE-2]]:12: note: 'torch::tensor' builds the same tensor here each time
    // CHECK: :[[@LINE+8]]:14: note: 'operator()' is called in a loop here
  }
};

void trainWithOperators(Loader &loader, torch::Device device, Scale s,
                        ScaleBy scaleBy) {
  for (auto &batch : loader) {
    auto a = s * device;
    auto b = scaleBy(batch.data, device);
  }
}
