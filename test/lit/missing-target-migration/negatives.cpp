// RUN: %check_lint %s --checks='-*,libtorch-missing-target-migration' -- %torch_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='warning:'
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

// The article's recommended loop: inputs and labels move together.
void correctLoop(std::vector<torch::data::Example<>> &loader) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto model = std::make_shared<Net>();
  model->to(device); // Modules move in place: no result to keep.
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  for (auto &batch : loader) {
    auto data = batch.data.to(device), target = batch.target.to(device);
    optimizer.zero_grad();
    auto loss = torch::nll_loss(model->forward(data), target);
    loss.backward();
    optimizer.step();
    std::cout << loss.item<double>() << std::endl;
  }
}

// Reassigning the moved tensor; a model that is never moved on a CPU-only path.
void reassign(torch::Device device) {
  auto x = torch::randn({1, 4});
  x = x.to(device);
  auto model = std::make_shared<Net>();
  model->to(device);
  auto y = model->forward(x);
  auto cpuModel = std::make_shared<Net>();
  auto z = cpuModel->forward(torch::randn({1, 4}));
}

// Loss modules have no weights: their device is their inputs'.
void lossModule(torch::Device device) {
  torch::nn::MSELoss criterion;
  auto a = torch::randn({3}, device), b = torch::randn({3}).to(device);
  auto loss = criterion(a, b);
}

// Models and inputs of unknown placement.
void unknown(std::shared_ptr<Net> model, torch::Tensor x) {
  auto y = model->forward(x);
  auto z = model->forward(torch::randn({1, 4}));
}

// Helpers that move a module (a shared handle) or rebind a tensor by
// reference: the caller's knowledge is dropped, not guessed.
void moveModel(std::shared_ptr<Net> m, torch::Device d) { m->to(d); }
void prepare(torch::Tensor &t, torch::Device d) { t = t.to(d); }
struct Trainer {
  explicit Trainer(std::shared_ptr<Net> m) : model(std::move(m)) {}
  void place(torch::Device d) { model->to(d); }
  std::shared_ptr<Net> model;
};
void helpers(torch::Device device) {
  auto model = std::make_shared<Net>();
  moveModel(model, device);
  auto x = torch::randn({1, 4}).to(device);
  auto y = model->forward(x);

  auto other = std::make_shared<Net>();
  auto alias = other;
  alias->to(device);
  auto z = other->forward(x);

  auto third = std::make_shared<Net>();
  Trainer trainer(third);
  trainer.place(device);
  auto w = third->forward(x);

  auto input = torch::randn({1, 4});
  prepare(input, device);
  auto v = alias->forward(input);
}

// A helper that runs the model it is given on the device its caller passes:
// fine when the caller moved the model first, when the helper moves it
// itself, and when the caller's device is not known.
using Batch = torch::data::Example<>;
void runOn(std::shared_ptr<Net> m, const Batch &b, torch::Device d) {
  m->forward(b.data.to(d)).sum().backward();
}
void moveThenRun(std::shared_ptr<Net> m, const Batch &b, torch::Device d) {
  m->to(d);
  runOn(m, b, d);
}
void helperCallers(const Batch &batch, torch::Device device,
                   std::shared_ptr<Net> given) {
  auto moved = std::make_shared<Net>();
  moved->to(device);
  runOn(moved, batch, device);
  auto movedByHelper = std::make_shared<Net>();
  moveThenRun(movedByHelper, batch, device);
  runOn(given, batch, device);
  auto onHost = std::make_shared<Net>();
  runOn(onHost, batch, torch::kCPU);
  runOn(moved, batch, torch::kCPU);
}

// Siblings moved together, in a lambda and after a model of unknown device;
// a target made afresh in the loop without a device is a plain device mix
// (libtorch-mixed-device-operands), not a tensor left behind.
void lambdasAndTargets(std::shared_ptr<Net> model,
                       const std::vector<Batch> &batches) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto step = [&](const Batch &b) {
    auto out = model->forward(b.data.to(device));
    return torch::nll_loss(out, b.target.to(device));
  };
  for (const auto &b : batches) {
    step(b).backward();
    auto out = model->forward(b.data.to(device));
    torch::mse_loss(out, torch::ones({4, 2})).backward();
  }
}

// A helper that feeds its model host tensors, called with a model that is
// on the host too, or whose device is not known.
double evaluateOnHost(std::shared_ptr<Net> m, const std::vector<Batch> &bs) {
  double sum = 0;
  for (const auto &b : bs)
    sum += m->forward(b.data).sum().item<double>();
  return sum;
}
void hostHelpers(const std::vector<Batch> &bs, std::shared_ptr<Net> given) {
  evaluateOnHost(std::make_shared<Net>(), bs);
  evaluateOnHost(given, bs);
}

// A discarded conversion that names no device moves nothing either way
// (public code: `labels.to(torch::kLong);` on labels made as kLong).
struct PairDataset {
  PairDataset(std::vector<int64_t> &raw) {
    labels = torch::from_blob(raw.data(), {static_cast<long>(raw.size()), 1},
                              torch::TensorOptions(torch::kLong))
                 .clone();
    this->labels.to(torch::kLong);
  }
  torch::Tensor labels;
};
void discardedDtypeConversion(torch::Tensor counts) {
  auto lab = torch::zeros({4}, torch::kLong);
  lab.to(torch::kLong);
  counts.to(torch::kFloat, /*non_blocking=*/false);
}

// A module of the user's whose constructor is defined in another file, and
// whose declaration shows no weights (a loss holding a scalar): whether it
// has a device is unknown from here, so it is never told to move (with the
// project's facts it is known: project/modules.test). Its output is on the
// inputs' device or its own; the mix after it is not judged either.
struct ElsewhereLossImpl : torch::nn::Module {
  explicit ElsewhereLossImpl(double gamma);
  torch::Tensor forward(torch::Tensor input, torch::Tensor target);
  double gamma;
};
TORCH_MODULE(ElsewhereLoss);
void lossBuiltElsewhere(std::vector<torch::data::Example<>> &loader) {
  torch::Device device(torch::kCUDA);
  Net model;
  model.to(device);
  ElsewhereLoss criterion(2.0);
  for (auto &batch : loader) {
    auto x = batch.data.to(device), y = batch.target.to(device);
    auto loss = criterion(model.forward(x), y);
    auto scaled = loss * torch::ones({1}, torch::kCUDA);
    scaled.backward();
  }
}
