// RUN: %check_lint %s --checks='-*,libtorch-missing-target-migration' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// Missing migrations whose two sides meet in another function, in a lambda,
// or only after the left-behind tensor went through a model. Each is
// reported where the fix belongs.
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl() { fc = register_module("fc", torch::nn::Linear(4, 3)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);
using Batch = torch::data::Example<>;

// The helpers move the data to the device their caller passes, and run the
// model they are given: the caller must have moved the model there.
torch::Tensor computeLoss(Net &net, const Batch &batch, torch::Device device) {
  auto inputs = batch.data.to(device);
  auto targets = batch.target.to(device);
  return torch::nn::functional::cross_entropy(net->forward(inputs), targets);
}

void trainEpoch(Net &net, const std::vector<Batch> &batches,
                torch::Device device) {
  for (const auto &batch : batches)
    computeLoss(net, batch, device).backward();
}

template <typename Model>
double evaluate(Model &model, const std::vector<Batch> &batches,
                torch::Device device) {
  double sum = 0;
  for (const auto &batch : batches)
    sum += model(batch.data.to(device)).sum().template item<double>();
  return sum;
}

void modelNeverMoved(const std::vector<Batch> &batches) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net net;
  trainEpoch(net, batches, device);
  // CHECK: :[[@LINE-1]]:3: warning: 'net' is on the CPU (it is created there and never moved) but 'trainEpoch' calls it with inputs on 'device'; move the module with 'net->to(device)' before this call [libtorch-missing-target-migration]
  // CHECK: :[[@LINE-3]]:7: note: the module is created here, on the CPU
  // CHECK: :21:47: note: 'net' is called here with 'inputs' on 'device'
  // One finding per module: the same root cause at the next helper.
  evaluate(net, batches, device);
}

void templatedHelper(const std::vector<Batch> &batches, torch::Device device) {
  Net net;
  evaluate(net, batches, device);
  // CHECK: :[[@LINE-1]]:3: warning: 'net' is on the CPU (it is created there and never moved) but 'evaluate' calls it with inputs on 'device'; move the module with 'net->to(device)' before this call
}

// A model of unknown device fed a raw `batch.data`: its output meets the
// moved target. The fix is the batch read.
void unknownModel(Net &model, const std::vector<Batch> &batches,
                  torch::Device device) {
  for (const auto &batch : batches) {
    auto data = batch.data;
    // CHECK: :[[@LINE-1]]:23: warning: 'batch.data' stays on the CPU while the rest of its batch is moved; 'output', computed from it, meets 'target' on 'device' in 'torch::nll_loss'; move it with 'batch.data.to(device)' [libtorch-missing-target-migration]
    // CHECK: :[[@LINE+4]]:19: note: output of 'model', on the CPU
    // CHECK: :[[@LINE-3]]:23: note: 'batch.data' comes from the data-loader batch, on the CPU
    // CHECK: :[[@LINE+1]]:32: note: 'batch.target' is moved to 'device' here with '.to(device)'
    auto target = batch.target.to(device);
    auto output = model->forward(data);
    torch::nll_loss(output, target).backward();
  }
}

// A target sliced from a host dataset each iteration, next to a moved input.
void datasetTarget(Net &model, torch::Device device) {
  model->to(device);
  auto images = torch::randn({512, 4});
  auto labels = torch::randint(0, 3, {512});
  for (int64_t start = 0; start < 512; start += 64) {
    auto x = images.narrow(0, start, 64).to(device);
    auto y = labels.narrow(0, start, 64);
    auto loss = torch::nn::functional::cross_entropy(model(x), y);
    // CHECK: :[[@LINE-1]]:64: warning: 'y' is on the CPU (created by 'torch::randint' without a device) but 'model(x)' is on 'device'; move it with 'y.to(device)' as well
    loss.backward();
  }
}

// A lambda's captured device is the enclosing function's device variable.
int lambdaStep(const std::vector<Batch> &batches) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net model;
  model->to(device);
  auto step = [&model, &device](const Batch &batch) {
    auto data = batch.data.to(device);
    auto logits = model(data);
    return torch::nn::functional::cross_entropy(logits, batch.target);
    // CHECK: :[[@LINE-1]]:57: warning: 'batch.target' is on the CPU (it comes from the data-loader batch) but 'logits' is on 'device'; move it with 'batch.target.to(device)' as well
  };
  for (const auto &batch : batches)
    step(batch).backward();
  return 0;
}

// The caller moved the model, the helper feeds it host tensors: the move
// belongs inside the helper, and the finding at the call says so.
double evaluateRaw(Net &model, const std::vector<Batch> &batches) {
  double sum = 0;
  for (const auto &batch : batches)
    sum += model(batch.data).sum().item<double>();
  return sum;
}

// A head fed the features of a backbone: it must be where the backbone is.
torch::Tensor headOnFeatures(Net &backbone, Net &head, const Batch &batch,
                             torch::Device device) {
  auto features = backbone(batch.data.to(device));
  return head(features);
}

void helperSidesDisagree(const std::vector<Batch> &batches,
                         torch::Device device) {
  Net model;
  model->to(device);
  evaluateRaw(model, batches);
  // CHECK: :[[@LINE-1]]:3: warning: 'model' is on 'device' but 'evaluateRaw' calls it with inputs on the CPU; move them to the module's device inside 'evaluateRaw' [libtorch-missing-target-migration]
  // CHECK: note: 'model' is called here with 'batch.data' on the CPU
  // CHECK: note: 'batch.data' comes from the data-loader batch, on the CPU
  // CHECK: :[[@LINE-5]]:10: note: 'model' is moved to 'device' here with '.to(device)'
  Net head;
  headOnFeatures(model, head, batches.front(), device);
  // CHECK: :[[@LINE-1]]:3: warning: 'head' is on the CPU (it is created there and never moved) but 'headOnFeatures' calls it with inputs on 'device'; move the module with 'head->to(device)' before this call
  // CHECK: note: the module is created here, on the CPU
  // CHECK: note: 'head' is called here with 'features' on 'device'

  // Both on the host: a CPU-only path, nothing to say.
  Net onHost;
  evaluateRaw(onHost, batches);
}

// The helper runs the model on the tensor it is given: a host tensor the
// caller passes is left behind at the call, where the caller can move it.
torch::Tensor scores(Net &net, const torch::Tensor &states) {
  return net(states);
}

void tensorPassedToHelper(torch::Device device) {
  Net model;
  model->to(device);
  auto states = torch::zeros({8, 4});
  scores(model, states);
  // CHECK: :[[@LINE-1]]:17: warning: input 'states' of 'model' is on the CPU (created by 'torch::zeros' without a device) but the module is on 'device'; move it with 'states.to(device)' [libtorch-missing-target-migration]
  // CHECK: :[[@LINE-3]]:17: note: created here by 'torch::zeros' on the CPU
  // CHECK: :[[@LINE-10]]:10: note: 'net' is called here with 'states' on the CPU
  // CHECK: :[[@LINE-6]]:10: note: 'model' is moved to 'device' here with '.to(device)'
  // Moved by the caller, or both on the host: nothing to say.
  scores(model, states.to(device));
  Net onHost;
  scores(onHost, states);
}
