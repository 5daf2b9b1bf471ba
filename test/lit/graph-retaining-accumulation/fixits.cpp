// RUN: cp %s %t.cpp
// RUN: %clang_tidy %t.cpp --fix --checks='-*,libtorch-graph-retaining-accumulation' -- %torch_flags > %t.out
// RUN: grep -v 'FIXED:' %t.cpp | FileCheck %s --check-prefix=FIXED
// RUN: FileCheck %s --input-file=%t.out --check-prefix=MESSAGE
// MESSAGE: warning: 'total' keeps 'loss', {{.*}} add its value with 'loss.item<double>()'
// MESSAGE: warning: 'history' keeps 'loss * 2', {{.*}} keep a detached copy with '(loss * 2).detach()'

// RUN: %check_lint %t.cpp --checks='%bug_checks' -- %torch_flags \
// RUN:   | FileCheck %s --allow-empty --check-prefix=CLEAN --implicit-check-not='warning:'
// CLEAN-NOT: warning:
#include <torch/torch.h>

void fit(torch::nn::Linear model, std::vector<torch::Tensor> &inputs) {
  torch::Tensor total = torch::tensor(0.0);
  std::vector<torch::Tensor> history;
  for (auto &x : inputs) {
    auto loss = model(x).pow(2).mean();
    loss.backward();
    total += loss;
    // FIXED: total += loss.item<double>();
    history.push_back(loss * 2);
    // FIXED: history.push_back((loss * 2).detach());
  }
}
