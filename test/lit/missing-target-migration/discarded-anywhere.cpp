// A `.to()` whose result is thrown away moves nothing, wherever the
// statement that throws it away stands: in a comma expression (as a public
// D2L port writes `X.to(device), y.to(device);`), after a cast to void, as
// the only statement of an `if` or a loop, in the third clause of a `for`;
// and inside a helper that is handed the tensor.
// RUN: cp %s %t.cpp
// RUN: %clang_tidy %t.cpp --fix --checks='-*,libtorch-missing-target-migration' -- %torch_flags > %t.out
// RUN: FileCheck %s --input-file=%t.out --implicit-check-not='warning:'
// RUN: grep -v 'FIXED:' %t.cpp | FileCheck %s --check-prefix=FIXED
// The fixed file compiles and has no discarded result left.
// RUN: %check_lint %t.cpp --checks='-*,libtorch-missing-target-migration' -- %torch_flags \
// RUN:   | FileCheck %s --allow-empty --check-prefix=CLEAN
// CLEAN-NOT: is discarded
#include <torch/torch.h>

// The shape: a D2L-style training step that "moves" a batch with a comma.
void trainStep(torch::nn::Linear net, torch::Tensor X, torch::Tensor y,
               torch::Device device) {
  net->to(device);
  X.to(device), y.to(device);
  // CHECK: :[[@LINE-1]]:5: warning: result of 'X.to(device)' is discarded; tensors do not move in place, so 'X' stays on
  // CHECK: :[[@LINE-2]]:19: warning: result of 'y.to(device)' is discarded
  // FIXED: X = X.to(device), y = y.to(device);
  auto loss = torch::mse_loss(net->forward(X), y);
}

// One step removed: a cast to void, an `if` without braces, a loop body,
// the third clause of a `for`.
void oneStepRemoved(torch::Tensor a, torch::Tensor b, torch::Tensor c,
                    std::vector<torch::Tensor> batch, torch::Device device) {
  (void)a.to(device);
  // CHECK: :[[@LINE-1]]:11: warning: result of 'a.to(device)' is discarded
  // FIXED: a = a.to(device);
  static_cast<void>(c.cuda());
  // CHECK: :[[@LINE-1]]:23: warning: result of 'c.cuda()' is discarded
  // FIXED: c = c.cuda();
  if (torch::cuda::is_available())
    b.to(device);
  // CHECK: :[[@LINE-1]]:7: warning: result of 'b.to(device)' is discarded
  // FIXED: b = b.to(device);
  for (auto &t : batch)
    t.to(device);
  // CHECK: :[[@LINE-1]]:7: warning: result of 't.to(device)' is discarded
  // FIXED: t = t.to(device);
  auto d = (a.to(device), b.to(device));
  // CHECK: :[[@LINE-1]]:15: warning: result of 'a.to(device)' is discarded
  // FIXED: auto d = (a = a.to(device), b.to(device));
  for (int i = 0; i < 3; c.to(device), ++i)
    c = c * 2;
  // CHECK: :[[@LINE-2]]:28: warning: result of 'c.to(device)' is discarded
  // FIXED: for (int i = 0; i < 3; c = c.to(device), ++i)
}

// Through a helper: the helper is handed the tensor and throws the copy
// away; the finding is in the helper, where the fix goes.
void toDevice(torch::Tensor &t, torch::Device device) { t.to(device); }
// CHECK: :[[@LINE-1]]:59: warning: result of 't.to(device)' is discarded
// FIXED: void toDevice(torch::Tensor &t, torch::Device device) { t = t.to(device); }

// Kept results, and conversions that move nothing.
void kept(torch::Tensor a, torch::Tensor b, torch::Device device) {
  a = a.to(device), b = b.to(device);
  auto c = (a.sum(), b.to(device));
  (void)a.to(torch::kLong);
  static_cast<void>(b.sum());
}
