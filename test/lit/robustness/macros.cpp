// Tensor code written through macros: findings are reported where the macro
// is used, operands are spelled as written in the macro or its arguments,
// and no fix-it edits a macro's expansion.
// RUN: %check_lint %s --checks='%bug_checks' -- %torch_flags > %t.out
// RUN: FileCheck %s --implicit-check-not='warning:' --input-file=%t.out
// RUN: cp %s %t.cpp
// RUN: %clang_tidy %t.cpp --checks='%bug_checks' --fix -- %torch_flags > %t.fix
// RUN: cmp %s %t.cpp
#include <torch/torch.h>

#define ON_HOST(n) torch::ones({n})
#define PLUS_HOST(x) ((x) + torch::ones({3}))
#define STEP(model, batch, device) \
  torch::nll_loss(model(batch.data.to(device)), batch.target)

void macros(torch::nn::Linear model,
            std::vector<torch::data::Example<>> &loader,
            torch::Device device) {
  auto d = torch::ones({3}, device);
  auto a = d * ON_HOST(3);
  // CHECK: :[[@LINE-1]]:14: warning: 'ON_HOST(3)' is on the CPU (created by 'torch::ones' without a device) but 'd' is on 'device' (created by 'torch::ones'); '*' needs all its tensor operands on one device [libtorch-mixed-device-operands]
  auto b = PLUS_HOST(d);
  // CHECK: :[[@LINE-1]]:12: warning: 'torch::ones({3})' is on the CPU (created by 'torch::ones' without a device) but '(x)' is on 'device'
  model->to(device);
  for (auto &batch : loader) {
    auto loss = STEP(model, batch, device);
    // CHECK: :[[@LINE-1]]:29: warning: 'batch.target' is on the CPU (it comes from the data-loader batch) but 'model(batch.data.to(device))' is on 'device'; move it with 'batch.target.to(device)' as well [libtorch-missing-target-migration]
  }
}

// Operands built from two different macros are printed, not cut out of the
// text between the two definitions.
#define HOST_PART torch::ones({3})
#define DEVICE_PART(device) torch::ones({3}, device)
#define BOTH(device) (HOST_PART * DEVICE_PART(device))
#define ON_DEVICE(device) (DEVICE_PART(device) * DEVICE_PART(device))

void nestedMacros(torch::Device device) {
  auto c = BOTH(device);
  // CHECK: :[[@LINE-1]]:12: warning: 'torch::ones({3})' is on the CPU {{.*}} but 'torch::ones({3}, device)' is on 'device'
  auto d = ON_DEVICE(device) + torch::ones({3});
  // CHECK: :[[@LINE-1]]:30: warning: 'torch::ones({3})' is on the CPU {{.*}} but 'ON_DEVICE(device)' is on 'device'
}
