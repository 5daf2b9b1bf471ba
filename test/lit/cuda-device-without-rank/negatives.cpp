// Where a CUDA device without an index is not one GPU for every process:
// a program that runs one process (no rank read, no process group), an
// index computed from the rank, and a program that sets each process's
// current device from its rank first.
// RUN: %check_lint %s --checks='-*,libtorch-cuda-device-without-rank' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:' --allow-empty
// RUN: %check_lint %S/Inputs/sets-current-device.cpp --checks='-*,libtorch-cuda-device-without-rank' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:' --allow-empty
// RUN: %check_lint %S/Inputs/one-process.cpp --checks='-*,libtorch-cuda-device-without-rank' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:' --allow-empty
#include <torch/torch.h>
#include <cstdlib>
#include <string>

// The index is the rank, however it is spelled.
int worker() {
  int local_rank = std::stoi(std::getenv("LOCAL_RANK"));
  torch::Device device(torch::kCUDA, local_rank);
  torch::Device again(torch::kCUDA, static_cast<c10::DeviceIndex>(local_rank));
  torch::Tensor x = torch::ones({2}).to(device);
  // The device type alone, compared or queried, places nothing.
  bool onGpu = x.device().type() == torch::kCUDA;
  return onGpu ? x.size(0) : 0;
}

int main() { return worker(); }
