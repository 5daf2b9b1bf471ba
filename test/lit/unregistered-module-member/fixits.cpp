// RUN: cp %s %t.cpp
// RUN: %clang_tidy %t.cpp --fix --checks='-*,libtorch-unregistered-module-member' -- %torch_flags > %t.out
// RUN: grep -v 'FIXED:' %t.cpp | FileCheck %s --check-prefix=FIXED
// RUN: FileCheck %s --input-file=%t.out --check-prefix=MESSAGE
// One finding for Net, which registers none of its four members; its fix-its
// register them all.
// MESSAGE: warning: none of the 4 submodules and parameters of 'Net' is passed to 'register_module' or 'register_parameter'
// MESSAGE: warning: submodule 'fc' is never passed to
// MESSAGE-NOT: warning:

// The fixed file is clean but for the member that had no fix-it.
// RUN: %check_lint %t.cpp --checks='%bug_checks' -- %torch_flags \
// RUN:   | FileCheck %s --check-prefix=CLEAN --implicit-check-not='warning:'
// CLEAN: warning: submodule 'fc' is never passed to 'register_module'
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() : fc1(torch::nn::Linear(4, 8)) {
    // FIXED: Net() : fc1(register_module("fc1", torch::nn::Linear(4, 8))) {
    fc2 = torch::nn::Linear(8, 2);
    // FIXED: fc2 = register_module("fc2", torch::nn::Linear(8, 2));
    head = std::make_shared<torch::nn::Module>();
    // FIXED: head = register_module("head", std::make_shared<torch::nn::Module>());
    weight = torch::randn({2}, torch::requires_grad());
    // FIXED: weight = register_parameter("weight", torch::randn({2}, torch::requires_grad()));
  }
  torch::nn::Linear fc1, fc2{nullptr};
  std::shared_ptr<torch::nn::Module> head;
  torch::Tensor weight;
};

// Constructed in place: reported, but no fix-it (the type is not spelled).
struct InPlace : torch::nn::Module {
  InPlace() : fc(4, 2) {}
  // FIXED: InPlace() : fc(4, 2) {}
  torch::nn::Linear fc;
};
