// Code in a batch loop that runs once per pass of it costs once per epoch,
// not once per step: a branch that clears its own flag (`if (first) { ...;
// first = false; }`, the debug print of the first batch that tutorial
// trainers keep), and a validation pass after `model->eval()` that keeps no
// NoGradGuard. Reported still: a flag the loop sets again, a branch that
// keeps its flag, a whole pass inside the run-once branch, and a loop after
// eval() that trains.
// RUN: %check_lint %s --checks='-*,libtorch-host-sync-in-loop' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>
#include <iostream>

using Loader = std::vector<torch::data::Example<>>;

// The shape: the first batch's labels printed one by one, once per epoch.
void trainPrintingFirstBatch(torch::nn::Linear model, Loader &loader,
                             torch::optim::SGD &optimizer,
                             torch::Device device, bool verbose) {
  model->to(device);
  bool first = true;
  for (int epoch = 0; epoch < 50; ++epoch) {
    first = true;
    for (auto &batch : loader) {
      auto image = batch.data.to(device);
      auto label = batch.target.to(device);
      if (first && verbose) {
        for (int64_t i = 0; i < label.size(0); i++)
          std::cout << label[i].item<int64_t>() << " ";
        std::cout << "\n";
        first = false;
      }
      auto loss = torch::mse_loss(model(image), label);
      optimizer.zero_grad();
      loss.backward();
      optimizer.step();
    }
  }
}

// One step removed: the flag is the other way round, and the print reads
// the output directly in the batch loop.
void trainPrintingOnce(torch::nn::Linear model, Loader &loader,
                       torch::optim::SGD &optimizer, torch::Device device) {
  model->to(device);
  bool printed = false;
  for (auto &batch : loader) {
    auto out = model(batch.data.to(device));
    if (!printed) {
      std::cout << "first output mean " << out.mean().item<float>() << "\n";
      printed = true;
    }
    auto loss = torch::mse_loss(out, batch.target.to(device));
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
}

// Through a helper: the run-once branch calls what copies.
static void printStats(const torch::Tensor &out) {
  std::cout << out.min().item<float>() << " " << out.max().item<float>()
            << "\n";
}

void trainPrintingThroughHelper(torch::nn::Linear model, Loader &loader,
                                torch::optim::SGD &optimizer,
                                torch::Device device) {
  model->to(device);
  bool first = true;
  for (auto &batch : loader) {
    auto out = model(batch.data.to(device));
    if (first) {
      printStats(out);
      first = false;
    }
    auto loss = torch::mse_loss(out, batch.target.to(device));
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
}

// The flag is set again inside the loop: the branch may run in any step.
void trainReArmed(torch::nn::Linear model, Loader &loader,
                  torch::optim::SGD &optimizer, torch::Device device) {
  model->to(device);
  bool first = true;
  double best = 1e9;
  for (auto &batch : loader) {
    auto out = model(batch.data.to(device));
    auto loss = torch::mse_loss(out, batch.target.to(device));
    if (first) {
      std::cout << loss.item<double>() << "\n";
      // CHECK: :[[@LINE-1]]:25: warning: '.item()' copies 'loss' (on 'device') to the host and waits for the device in every iteration; accumulate on the device and read the value once per logging interval [libtorch-host-sync-in-loop]
      // CHECK: :[[@LINE-6]]:3: note: in this loop
      // CHECK: :[[@LINE-6]]:16: note: output of 'model', on 'device'
      // CHECK: :[[@LINE-11]]:10: note: 'model' is moved to 'device' here with '.to(device)'
      first = false;
    }
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    if (out.numel() > best)
      first = true;
  }
}

// The branch keeps its flag: a verbose run prints every step.
void trainVerbose(torch::nn::Linear model, Loader &loader,
                  torch::optim::SGD &optimizer, torch::Device device,
                  bool verbose) {
  model->to(device);
  for (auto &batch : loader) {
    auto out = model(batch.data.to(device));
    auto loss = torch::mse_loss(out, batch.target.to(device));
    if (verbose) {
      std::cout << loss.item<double>() << "\n";
      // CHECK: :[[@LINE-1]]:25: warning: '.item()' copies 'loss' (on 'device') to the host and waits for the device in every iteration; accumulate on the device and read the value once per logging interval [libtorch-host-sync-in-loop]
      // CHECK: :[[@LINE-6]]:3: note: in this loop
      // CHECK: :[[@LINE-6]]:16: note: output of 'model', on 'device'
      // CHECK: :[[@LINE-9]]:10: note: 'model' is moved to 'device' here with '.to(device)'
    }
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
}

// A whole pass over the data runs once, inside the branch: its copies still
// run once per batch.
void warmUpOnce(torch::nn::Linear model, Loader &loader,
                torch::optim::SGD &optimizer, torch::Device device) {
  model->to(device);
  bool warmedUp = false;
  for (int epoch = 0; epoch < 10; ++epoch) {
    if (!warmedUp) {
      for (auto &batch : loader) {
        auto loss = torch::mse_loss(model(batch.data.to(device)),
                                    batch.target.to(device));
        optimizer.zero_grad();
        loss.backward();
        optimizer.step();
        std::cout << loss.item<double>() << "\n";
        // CHECK: :[[@LINE-1]]:27: warning: '.item()' copies 'loss' (on 'device') to the host and waits for the device in every iteration; accumulate on the device and read the value once per logging interval [libtorch-host-sync-in-loop]
        // CHECK: :[[@LINE-8]]:7: note: in this loop
        // CHECK: :[[@LINE-8]]:37: note: output of 'model', on 'device'
        // CHECK: :[[@LINE-14]]:10: note: 'model' is moved to 'device' here with '.to(device)'
      }
      warmedUp = true;
    }
  }
}

// A validation pass after eval(), without a NoGradGuard, reads each batch's
// loss: what the pass is for, once per epoch.
void trainAndValidate(torch::nn::Linear model, Loader &train, Loader &valid,
                      torch::optim::SGD &optimizer, torch::Device device) {
  model->to(device);
  for (int epoch = 0; epoch < 10; ++epoch) {
    model->train();
    for (auto &batch : train) {
      auto loss = torch::mse_loss(model(batch.data.to(device)),
                                  batch.target.to(device));
      optimizer.zero_grad();
      loss.backward();
      optimizer.step();
    }
    model->eval();
    float lossSum = 0;
    for (auto &batch : valid) {
      auto loss = torch::mse_loss(model(batch.data.to(device)),
                                  batch.target.to(device));
      lossSum += loss.item<float>();
    }
    std::cout << lossSum / valid.size() << "\n";
  }
}

// One step removed: train(false), and the pass in a function of its own.
void validate(torch::nn::Linear model, Loader &valid, torch::Device device) {
  model->train(false);
  for (auto &batch : valid) {
    auto out = model(batch.data.to(device));
    std::cout << torch::mse_loss(out, batch.target.to(device)).item<float>()
              << "\n";
  }
}

// Through a helper: the caller switches the model to eval() before each
// call of the pass; then to train(), before another helper whose loop is a
// training pass.
static float testPass(torch::nn::Linear model, Loader &valid,
                      torch::Device device) {
  float total = 0;
  for (auto &batch : valid) {
    auto out = model(batch.data.to(device));
    total += torch::mse_loss(out, batch.target.to(device)).item<float>();
  }
  return total;
}

static void trainPass(torch::nn::Linear model, Loader &train,
                      torch::optim::SGD &optimizer, torch::Device device) {
  for (auto &batch : train) {
    auto loss = torch::mse_loss(model(batch.data.to(device)),
                                batch.target.to(device));
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    std::cout << loss.item<double>() << "\n";
    // CHECK: :[[@LINE-1]]:23: warning: '.item()' copies 'loss' (on 'device') to the host and waits for the device in every iteration; accumulate on the device and read the value once per logging interval [libtorch-host-sync-in-loop]
    // CHECK: :[[@LINE-8]]:3: note: in this loop
    // CHECK: :[[@LINE-8]]:33: note: output of 'model', on 'device'
    // CHECK: :[[@LINE+10]]:15: note: 'model' is on 'device' here: passed by 'fitWithHelpers'
    // CHECK: :[[@LINE+6]]:10: note: 'model' is moved to 'device' here with '.to(device)'
  }
}

void fitWithHelpers(torch::nn::Linear model, Loader &train, Loader &valid,
                    torch::optim::SGD &optimizer, torch::Device device) {
  model->to(device);
  for (int epoch = 0; epoch < 10; ++epoch) {
    model->train();
    trainPass(model, train, optimizer, device);
    model->eval();
    std::cout << testPass(model, valid, device) << "\n";
  }
}

// Switched back to training before the loop: a training pass.
void evalThenTrain(torch::nn::Linear model, Loader &loader,
                   torch::optim::SGD &optimizer, torch::Device device) {
  model->to(device);
  model->eval();
  auto probe = model(torch::ones({1, 1}).to(device));
  model->train();
  for (auto &batch : loader) {
    auto loss = torch::mse_loss(model(batch.data.to(device)),
                                batch.target.to(device));
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    std::cout << loss.item<double>() << "\n";
    // CHECK: :[[@LINE-1]]:23: warning: '.item()' copies 'loss' (on 'device') to the host and waits for the device in every iteration; accumulate on the device and read the value once per logging interval [libtorch-host-sync-in-loop]
    // CHECK: :[[@LINE-8]]:3: note: in this loop
    // CHECK: :[[@LINE-8]]:33: note: output of 'model', on 'device'
    // CHECK: :[[@LINE-14]]:10: note: 'model' is moved to 'device' here with '.to(device)'
  }
}

// In evaluation mode, but the loop trains (fine-tuning with frozen batch
// statistics): each step's copy counts.
void trainInEvalMode(torch::nn::Linear model, Loader &loader,
                     torch::optim::SGD &optimizer, torch::Device device) {
  model->to(device);
  model->eval();
  for (auto &batch : loader) {
    auto loss = torch::mse_loss(model(batch.data.to(device)),
                                batch.target.to(device));
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    std::cout << loss.item<double>() << "\n";
    // CHECK: :[[@LINE-1]]:23: warning: '.item()' copies 'loss' (on 'device') to the host and waits for the device in every iteration; accumulate on the device and read the value once per logging interval [libtorch-host-sync-in-loop]
    // CHECK: :[[@LINE-8]]:3: note: in this loop
    // CHECK: :[[@LINE-8]]:33: note: output of 'model', on 'device'
    // CHECK: :[[@LINE-12]]:10: note: 'model' is moved to 'device' here with '.to(device)'
  }
}
