// A CPU fallback in a catch: the source article wraps the moves in a try and
// falls back to the CPU in the handler. When the second move throws, the
// first has happened: the code after the try goes on with the model on the
// GPU and the statistics on the CPU. The device flow follows each path on
// which a LibTorch error is thrown and caught, from the state before the
// throw; the finding is the first op on that path that mixes them, with a
// note at the throw and one at the handler.
// RUN: %check_lint %s --checks='%bug_checks' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>
#include <iostream>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

// The shape: the handler sets the device back to the CPU, and what was
// moved before the throw stays moved.
int normalisedForward() {
  auto model = std::make_shared<Net>();
  torch::Tensor mean = torch::zeros({4});
  torch::Device device(torch::kCUDA);
  try {
    model->to(device);
    mean = mean.to(device);
  } catch (const c10::Error &) {
    device = torch::kCPU;
  }
  torch::Tensor x = torch::rand({8, 4}).to(device);
  return model->forward(x - mean).size(0);
  // CHECK: :[[@LINE-1]]:10: warning: 'x - mean' is on the CPU (copied back with '.to(device)') but 'model' is on 'cuda' (moved with '.to(device)'); 'model' needs all its tensor operands on one device [libtorch-mixed-device-operands]
  // CHECK: :[[@LINE-7]]:12: note: on the path where '.to()' throws here (a LibTorch error)
  // CHECK: :[[@LINE-7]]:5: note: the handler catches it and the code after it goes on with 'x - mean' on the CPU while 'model' is on 'cuda'; move both in the handler, or pick the device before moving anything
  // CHECK: :[[@LINE-5]]:41: note: 'torch::rand({8, 4})' is copied to the CPU here with '.to(device)'
  // CHECK: :[[@LINE-11]]:12: note: 'model' is moved to 'device' here with '.to(device)'
}

// One step removed: a handler that only logs, of std::exception, and a
// weight moved through a view before the model's move throws.
torch::Tensor weightedLogits(torch::Tensor weights, torch::Device device) {
  auto model = std::make_shared<Net>();
  try {
    weights = weights.to(device).view({1, -1});
    model->to(device);
  } catch (const std::exception &e) {
    std::cerr << "staying on the CPU: " << e.what() << "\n";
  }
  torch::Tensor x = torch::rand({8, 4}).to(device);
  return model->forward(x) * weights;
  // CHECK: :[[@LINE-1]]:10: warning: 'model' is on the CPU (it is created there and never moved) but 'x' is on 'cuda' (moved with '.to(device)'); 'model' needs all its tensor operands on one device [libtorch-mixed-device-operands]
  // CHECK: :[[@LINE-8]]:15: note: on the path where '.to()' throws here (a LibTorch error)
  // CHECK: :[[@LINE-7]]:5: note: the handler catches it and the code after it goes on with 'model' on the CPU while 'x' is on 'cuda'; move both in the handler, or pick the device before moving anything
  // CHECK: :[[@LINE-12]]:16: note: the module is created here, on the CPU
  // CHECK: :[[@LINE-6]]:41: note: 'torch::rand({8, 4})' is moved to 'cuda' here with '.to(device)'
}

// Through a helper: the call of the user's helper may throw (it runs
// LibTorch code); when it does, the model has moved and the labels have not.
torch::Tensor toDevice(const torch::Tensor &t, torch::Device device) {
  return t.to(device);
}

double lossWithLabels(torch::Device device) {
  auto model = std::make_shared<Net>();
  torch::Tensor labels = torch::randint(2, {8});
  try {
    model->to(device);
    labels = toDevice(labels, device);
  } catch (const c10::Error &) {
    device = torch::kCPU;
  }
  torch::Tensor x = torch::rand({8, 4}).to(device);
  torch::Tensor out = model->forward(x);
  // CHECK: :[[@LINE-1]]:23: warning: 'x' is on the CPU (copied back with '.to(device)') but 'model' is on 'cuda' (moved with '.to(device)'); 'model' needs all its tensor operands on one device [libtorch-mixed-device-operands]
  // CHECK: :[[@LINE-7]]:14: note: on the path where 'toDevice' throws here (a LibTorch error)
  // CHECK: :[[@LINE-7]]:5: note: the handler catches it and the code after it goes on with 'x' on the CPU while 'model' is on 'cuda'; move both in the handler, or pick the device before moving anything
  // CHECK: :[[@LINE-5]]:41: note: 'torch::rand({8, 4})' is copied to the CPU here with '.to(device)'
  // CHECK: :[[@LINE-11]]:12: note: 'model' is moved to 'cuda' here with '.to(device)'
  return torch::nll_loss(out, labels).item<double>();
}

// A device variable assigned another device after the model moved, on the
// paths on which nothing throws: what moves with it now is not where the
// model is, and moving it with the same `.to(device)` is no fix.
int reassignedDevice() {
  torch::nn::Linear model(4, 2);
  torch::Device device(torch::kCUDA);
  model->to(device);
  device = torch::Device(torch::kCPU); // evaluate on the CPU
  torch::Tensor x = torch::rand({8, 4}).to(device);
  return model->forward(x).size(0);
  // CHECK: :[[@LINE-1]]:10: warning: 'x' is on the CPU (copied back with '.to(device)') but 'model' is on 'cuda' (moved with '.to(device)'); 'model' needs all its tensor operands on one device [libtorch-mixed-device-operands]
  // CHECK: :[[@LINE-3]]:41: note: 'torch::rand({8, 4})' is copied to the CPU here with '.to(device)'
  // CHECK: :[[@LINE-6]]:10: note: 'model' is moved to 'device' here with '.to(device)'
}

// One step removed: the input is built on the reassigned device and
// reshaped before it meets the model.
int reassignedThenViewed() {
  torch::nn::Linear model(4, 2);
  torch::Device device(torch::kCUDA);
  model->to(device);
  device = torch::kCPU;
  torch::Tensor flat = torch::rand({32}, torch::TensorOptions(device));
  return model->forward(flat.view({8, 4})).size(0);
  // CHECK: :[[@LINE-1]]:10: warning: 'flat.view({8, 4})' is on the CPU (created by 'torch::rand' without a device) but 'model' is on 'cuda' (moved with '.to(device)'); 'model' needs all its tensor operands on one device [libtorch-mixed-device-operands]
  // CHECK: :[[@LINE-3]]:24: note: created here by 'torch::rand' on the CPU
  // CHECK: :[[@LINE-6]]:10: note: 'model' is moved to 'device' here with '.to(device)'
}

// Through a helper: the input is moved by a helper given the reassigned
// device.
torch::Tensor onDevice(const torch::Tensor &t, const torch::Device &device) {
  return t.to(device);
}

int reassignedThroughHelper() {
  torch::nn::Linear model(4, 2);
  torch::Device device(torch::kCUDA);
  model->to(device);
  device = torch::Device(torch::kCPU);
  torch::Tensor x = onDevice(torch::rand({8, 4}), device);
  return model->forward(x).size(0);
  // CHECK: :[[@LINE-1]]:10: warning: 'x' is on the CPU (returned by 'onDevice(torch::rand({8, 4}), device)') but 'model' is on 'cuda' (moved with '.to(device)'); 'model' needs all its tensor operands on one device [libtorch-mixed-device-operands]
  // CHECK: :[[@LINE-3]]:21: note: 'onDevice(torch::rand({8, 4}), device)' returns it on the CPU
  // CHECK: :[[@LINE-12]]:12: note: 't' is moved to 'device' here with '.to(device)'
  // CHECK: :[[@LINE-7]]:10: note: 'model' is moved to 'device' here with '.to(device)'
}

// Negatives.
// The handler moves everything back.
int fallbackMovesEverything() {
  auto model = std::make_shared<Net>();
  torch::Tensor mean = torch::zeros({4});
  torch::Device device(torch::kCUDA);
  try {
    model->to(device);
    mean = mean.to(device);
  } catch (const c10::Error &) {
    device = torch::kCPU;
    model->to(device);
    mean = mean.to(device);
  }
  torch::Tensor x = torch::rand({8, 4}).to(device);
  return model->forward(x - mean).size(0);
}

// The device is picked before anything is moved.
int deviceProbedFirst() {
  auto model = std::make_shared<Net>();
  torch::Tensor mean = torch::zeros({4});
  torch::Device device(torch::kCPU);
  try {
    torch::zeros({1}, torch::kCUDA);
    device = torch::Device(torch::kCUDA);
  } catch (const c10::Error &) {
    device = torch::kCPU;
  }
  model->to(device);
  mean = mean.to(device);
  torch::Tensor x = torch::rand({8, 4}).to(device);
  return model->forward(x - mean).size(0);
}

// The handler gives up: nothing runs after it.
int handlerReturns() {
  auto model = std::make_shared<Net>();
  torch::Tensor mean = torch::zeros({4});
  try {
    model->to(torch::kCUDA);
    mean = mean.to(torch::kCUDA);
  } catch (const c10::Error &e) {
    std::cerr << e.what() << "\n";
    return -1;
  }
  return model->forward(torch::rand({8, 4}).cuda() - mean).size(0);
}

// A handler of a type LibTorch does not throw never sees its errors.
int unrelatedHandler() {
  auto model = std::make_shared<Net>();
  torch::Tensor mean = torch::zeros({4});
  torch::Device device(torch::kCUDA);
  try {
    model->to(device);
    mean = mean.to(device);
  } catch (const std::runtime_error &) {
    device = torch::kCPU;
  }
  torch::Tensor x = torch::rand({8, 4}).to(device);
  return model->forward(x - mean).size(0);
}

// One move in the try: on the path where it throws, nothing moved.
int singleMove() {
  auto model = std::make_shared<Net>();
  torch::Device device(torch::kCUDA);
  try {
    model->to(device);
  } catch (...) {
    device = torch::kCPU;
  }
  torch::Tensor x = torch::rand({8, 4}).to(device);
  return model->forward(x).size(0);
}

int main() {
  normalisedForward();
  weightedLogits(torch::ones({2}), torch::kCUDA);
  lossWithLabels(torch::kCUDA);
  reassignedDevice();
  reassignedThenViewed();
  reassignedThroughHelper();
  fallbackMovesEverything();
  deviceProbedFirst();
  handlerReturns();
  unrelatedHandler();
  singleMove();
}
