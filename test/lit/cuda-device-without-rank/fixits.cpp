// The fix-its put the process's local rank, where a variable holds it in
// the function (or the file), into each device: an index next to the type,
// a device in place of a bare type, the rank in place of a fixed index, and
// `.to(...)` in place of `.cuda()`. Without such a variable, the finding
// names `local_rank` and offers no fix-it.
// RUN: cp %s %t.cpp
// RUN: %clang_tidy %t.cpp --fix --checks='-*,libtorch-cuda-device-without-rank' -- %torch_flags > %t.out
// RUN: grep -v 'FIXED:' %t.cpp | FileCheck %s --check-prefix=FIXED
#include <torch/torch.h>
#include <cstdlib>
#include <string>

int train() {
  const int localRank = std::atoi(std::getenv("LOCAL_RANK"));
  torch::Device device(torch::kCUDA);
  // FIXED: torch::Device device(torch::kCUDA, localRank);
  torch::Device named("cuda");
  // FIXED: torch::Device named(torch::kCUDA, localRank);
  torch::Device first(torch::kCUDA, 0);
  // FIXED: torch::Device first(torch::kCUDA, localRank);
  torch::Tensor x = torch::ones({2}).to(torch::kCUDA);
  // FIXED: torch::Tensor x = torch::ones({2}).to(torch::Device(torch::kCUDA, localRank));
  torch::Tensor y = torch::ones({2}).cuda();
  // FIXED: torch::Tensor y = torch::ones({2}).to(torch::Device(torch::kCUDA, localRank));
  return static_cast<int>((x + y).size(0)) + device.index() + named.index() +
         first.index();
}

// No variable holds the rank here: the device stays as written.
torch::Tensor elsewhere() {
  return torch::zeros({2}, torch::kCUDA);
  // FIXED: return torch::zeros({2}, torch::kCUDA);
}

int main() { return train() + elsewhere().size(0); }
