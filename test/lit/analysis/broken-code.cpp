// Code clang cannot parse: the parse errors are reported as clang reports
// them, clang-tidy exits 1 (not a crash), and no finding is invented from the
// error-recovery nodes.
// RUN: %clang_tidy %s --checks='%bug_checks' -- %torch_flags > %t.out 2>&1; test $? -eq 1
// RUN: FileCheck %s --input-file=%t.out --implicit-check-not='warning:'
// CHECK-DAG: error: use of undeclared identifier 'undefined_device'
// CHECK-DAG: error: no member named 'to_devic' in 'at::Tensor'
// CHECK-DAG: error: use of undeclared identifier 'missing'
#include <torch/torch.h>

void broken(std::vector<torch::data::Example<>> &loader) {
  auto model = std::make_shared<torch::nn::LinearImpl>(4, 2);
  model->to(undefined_device);
  for (auto &batch : loader) {
    auto data = batch.data.to_devic(torch::kCUDA);
    auto out = model->forward(data) + missing;
    auto loss = torch::mse_loss(out, batch.target);
  }
}

// A move that does not compile (in public code, a class an error made
// invalid) still means to move the model: what the error touches is
// unknown, and no finding rests on it.
// CHECK-DAG: error: no matching member function for call to 'to'
void moveThatDoesNotCompile() {
  torch::nn::Linear model(4, 2);
  model->to(torch::kCUDA, torch::kFloat, true, true, 5);
  auto in = torch::ones({1, 4}, torch::kCUDA);
  auto out = model->forward(in);
}
