// The model is made in one function and trained in another, which moves
// every batch to the device it is given: a model nobody moved meets those
// batches inside the training function. Reported where the model is handed
// over, once. Shaped like public training code whose `main` lost its
// `model->to(device)`.
// RUN: %check_lint %s --checks='%bug_checks' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(4, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

struct Plain : torch::nn::Module {
  Plain() : fc(register_module("fc", torch::nn::Linear(4, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc;
};

void train_epoch(Net model, torch::optim::Optimizer &opt,
                 std::vector<torch::data::Example<>> &batches,
                 torch::Device device) {
  model->train();
  for (auto &batch : batches) {
    auto data = batch.data.to(device), target = batch.target.to(device);
    opt.zero_grad();
    auto loss = torch::nll_loss(model->forward(data), target);
    loss.backward();
    opt.step();
  }
}

// The shape: the model made in `main` itself.
void shape(std::vector<torch::data::Example<>> &batches) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  Net model;
  torch::optim::SGD opt(model->parameters(), 0.1);
  for (int epoch = 0; epoch < 10; ++epoch)
    train_epoch(model, opt, batches, device);
  // CHECK: :[[@LINE-1]]:5: warning: 'model' is on the CPU (it is created there and never moved) but 'train_epoch' calls it with inputs on 'device'; move the module with 'model->to(device)' before this call [libtorch-missing-target-migration]
}

// One step removed: the model comes from a `create_model()` helper.
Net create_model() {
  Net model;
  return model;
}
void from_factory(std::vector<torch::data::Example<>> &batches) {
  torch::Device device(torch::kCUDA);
  auto model = create_model();
  torch::optim::SGD opt(model->parameters(), 0.1);
  train_epoch(model, opt, batches, device);
  // CHECK: :[[@LINE-1]]:3: warning: 'model' is on the CPU (returned by 'create_model()') but 'train_epoch' calls it with inputs on 'device'; move the module with 'model->to(device)' before this call [libtorch-missing-target-migration]
}

// Through a helper, and through a pointer: a module class used by
// reference, made with std::make_shared and handed over as `*model`.
void train_plain(Plain &model, std::vector<torch::data::Example<>> &batches,
                 torch::Device device) {
  for (auto &batch : batches) {
    auto loss = torch::nll_loss(model.forward(batch.data.to(device)),
                                batch.target.to(device));
    loss.backward();
  }
}
void run_epochs(Plain &model, std::vector<torch::data::Example<>> &batches,
                torch::Device device) {
  for (int epoch = 0; epoch < 10; ++epoch)
    train_plain(model, batches, device);
}
void through_pointer(std::vector<torch::data::Example<>> &batches) {
  torch::Device device(torch::kCUDA);
  auto model = std::make_shared<Plain>();
  run_epochs(*model, batches, device);
  // CHECK: :[[@LINE-1]]:3: warning: 'model' is on the CPU (it is created there and never moved) but 'run_epochs' calls it with inputs on 'device'; move the module with 'model->to(device)' before this call [libtorch-missing-target-migration]
  // CHECK: :[[@LINE-3]]:16: note: the module is created here, on the CPU
  // CHECK: model-placed-elsewhere.cpp:{{[0-9]+}}:33: note: 'model' is called here with 'batch.data.to(device)' on 'device'
}

// Negatives: the model moved before it is handed over, by the caller or by
// the factory.
Net create_placed(torch::Device device) {
  Net model;
  model->to(device);
  return model;
}
void placed(std::vector<torch::data::Example<>> &batches) {
  torch::Device device(torch::kCUDA);
  Net model;
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.1);
  train_epoch(model, opt, batches, device);
  auto other = create_placed(device);
  train_epoch(other, opt, batches, device);
  auto shared = std::make_shared<Plain>();
  shared->to(device);
  run_epochs(*shared, batches, device);
}
