// After a fatal error (a header not found), clang keeps a constructor's
// member initializers it could not check as a ParenListExpr of no type
// around a RecoveryExpr. Found on public code (a YOLO port whose generated
// export header was missing): reading what a module registers crashed on
// such an initializer. Now: the error as clang reports it, exit codes 1
// (clang-tidy) and 2 (torchtidy), not a crash.
// RUN: %clang_tidy %s --checks='%bug_checks' -- %torch_flags > %t.out 2>&1; test $? -eq 1
// RUN: FileCheck %s --input-file=%t.out --implicit-check-not='warning:'
// RUN: %torchtidy %s -- %torch_flags > %t.driver 2>&1; test $? -eq 2
// RUN: FileCheck %s --input-file=%t.driver --implicit-check-not='warning:'
// CHECK: error: 'generated_export.h' file not found
#include "generated_export.h"
#include <torch/torch.h>

struct DetectionLayerImpl : torch::nn::Module {
  torch::Tensor anchors;
  std::array<torch::Tensor, 2> grid;
  explicit DetectionLayerImpl(const std::vector<float> &values)
      : anchors(register_buffer(
            "anchors",
            torch::from_blob((void *)values.data(),
                             {static_cast<int64_t>(values.size() / 2), 2})
                .clone())),
        grid({torch::empty({0}), torch::empty({0})}) {}
  torch::Tensor forward(torch::Tensor x) { return x; }
};
