// Templates are analysed per instantiation and reported once per source
// location; an uninstantiated template is not analysed (its types are
// dependent, so nothing about it is known yet).
// RUN: %check_lint %s --checks='%bug_checks' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

template <typename Scale> void scaled(Scale scale, torch::Device device) {
  auto x = torch::ones({3}, device);
  auto y = x * torch::ones({3}) * scale;
  // CHECK: :[[@LINE-1]]:14: warning: 'torch::ones({3})' is on the CPU {{.*}} [libtorch-mixed-device-operands]
}
template void scaled(double, torch::Device);
template void scaled(float, torch::Device);
template void scaled(int, torch::Device);

template <typename T> void neverUsed(T t, torch::Device device) {
  auto x = torch::ones({3}, device) * torch::ones({3});
}

// The usual shape of a training function: templated on the loader, ranging
// over `*loader`. Each instantiation is analysed; a finding is reported once.
template <typename Loader>
void train(Loader &loader, torch::nn::Linear &model, torch::Device device) {
  for (auto &batch : *loader) {
    auto out = model(batch.data.to(device));
    auto loss = torch::nll_loss(out, batch.target);
    // CHECK: :[[@LINE-1]]:38: warning: 'batch.target' is on the CPU (it comes from the data-loader batch) but 'out' is on 'device'; move it with 'batch.target.to(device)' as well [libtorch-missing-target-migration]
  }
}

// A templated helper: summarised per instantiation.
template <typename T> T onDevice(const T &x, torch::Device d) {
  return x.to(d);
}

template <typename Loader>
void evaluate(Loader &loader, torch::nn::Linear &model, torch::Device device) {
  for (const auto &batch : *loader) {
    auto out = model(onDevice(batch.data, device));
    auto hits = out.argmax(1).eq(batch.target);
    // CHECK: :[[@LINE-1]]:34: warning: 'batch.target' is on the CPU (it comes from the data-loader batch) but 'out.argmax(1)' is on 'device'; move it with 'batch.target.to(device)' as well [libtorch-missing-target-migration]
    auto fine = out.argmax(1).eq(onDevice(batch.target, device));
  }
}

struct Pairs : torch::data::datasets::Dataset<Pairs> {
  torch::data::Example<> get(size_t i) override {
    return {torch::randn({4}), torch::tensor(1L)};
  }
  torch::optional<size_t> size() const override { return 8; }
};

void run(torch::Device device) {
  torch::nn::Linear model(4, 2);
  model->to(device);
  auto loader = torch::data::make_data_loader(
      Pairs().map(torch::data::transforms::Stack<>()), 4);
  train(loader, model, device);
  evaluate(loader, model, device);
  auto sequential =
      torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
          Pairs().map(torch::data::transforms::Stack<>()), 4);
  train(sequential, model, device);
  evaluate(sequential, model, device);
}
