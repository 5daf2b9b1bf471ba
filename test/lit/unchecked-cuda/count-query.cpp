// A file that only ever uses the CPU, and one that asks device_count():
// neither is reported.
// RUN: %check_lint %s --checks='-*,libtorch-unchecked-cuda' -- %torch_flags \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='warning:'
// RUN: %check_lint %s --checks='-*,libtorch-unchecked-cuda' -- %torch_flags -DCPU_ONLY \
// RUN:   | FileCheck %s --allow-empty --implicit-check-not='warning:'
// CHECK-NOT: warning:
#include <torch/torch.h>

#ifdef CPU_ONLY
torch::Tensor run(torch::Tensor x) { return x.to(torch::kCPU) * 2; }
#else
torch::Tensor run(torch::Tensor x) {
  if (torch::cuda::device_count() > 0)
    return x.cuda() * 2;
  return x * 2;
}
#endif
