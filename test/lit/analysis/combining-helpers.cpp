// A helper that combines two of its tensor parameters in one op passes that
// requirement to its callers (through helpers of helpers): arguments on two
// devices are a finding at the call, with a note at the op inside.
// RUN: %check_lint %s --checks='%bug_checks' -- %torch_flags | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

torch::Tensor loss_of(const torch::Tensor &pred, const torch::Tensor &labels) {
  return torch::nll_loss(pred, labels);
}
torch::Tensor weighted(torch::Tensor pred, torch::Tensor labels) {
  return loss_of(torch::log_softmax(pred, 1), labels) * 2;
}
// Helpers that meet no requirement: one moves the labels itself, one only
// reads a parameter's shape, one combines a parameter with a 0-dim scalar.
torch::Tensor aligned(torch::Tensor pred, torch::Tensor labels) {
  return torch::nll_loss(pred, labels.to(pred.device()));
}
torch::Tensor scaled(torch::Tensor pred, torch::Tensor labels) {
  return pred * static_cast<double>(labels.size(0));
}

void train(torch::nn::Linear model,
           std::vector<torch::data::Example<>> &batches) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  model->to(device);
  for (auto &batch : batches) {
    auto out = model->forward(batch.data.to(device));
    auto loss = loss_of(out, batch.target);
    // CHECK: :[[@LINE-1]]:30: warning: 'batch.target' is on the CPU (it comes from the data-loader batch) but 'out' is on 'device'; move it with 'batch.target.to(device)' as well [libtorch-missing-target-migration]
    // CHECK: combining-helpers.cpp:8:10: note: the helper combines 'pred' and 'labels' here in 'torch::nll_loss', which needs them on one device
    auto twice = weighted(out, torch::zeros({8}, torch::kLong));
    // CHECK: :[[@LINE-1]]:18: warning: 'torch::zeros({8}, torch::kLong)' is on the CPU (created by 'torch::zeros' without a device) but 'out' is on 'device' (output of 'model'); 'weighted' needs all its tensor operands on one device [libtorch-mixed-device-operands]
    // CHECK: combining-helpers.cpp:8:10: note: the helper combines 'pred' and 'labels' here in 'torch::nll_loss'
    auto right = loss_of(out, batch.target.to(device));
    auto fixed = aligned(out, batch.target);
    auto scale = scaled(out, batch.target);
    auto scalar = weighted(out, torch::tensor(3));
    loss.backward();
  }
}
