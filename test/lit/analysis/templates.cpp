// Templates are analysed per instantiation and reported once per source
// location; an uninstantiated template is not analysed (its types are
// dependent, so nothing about it is known yet).
// RUN: %clang_tidy %s --checks='%bug_checks' -- %torch_flags \
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
