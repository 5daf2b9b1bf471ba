// One process per GPU: a program that reads its rank (or creates a process
// group) and puts its model on `torch::kCUDA` without an index puts it on
// GPU 0 in every process. Shaped like the DDP ports of public C++ training
// code (torchrun sets LOCAL_RANK; MPI launchers set their own variables).
// RUN: %check_lint %s --checks='-*,libtorch-cuda-device-without-rank' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>
#include <cstdlib>
#include <string>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

// The shape: the device variable of a torchrun worker is `kCUDA`.
int worker() {
  int local_rank = std::stoi(std::getenv("LOCAL_RANK"));
  torch::Device device(torch::kCUDA);
  // CHECK: :[[@LINE-1]]:24: warning: 'torch::kCUDA' is the current CUDA device, the same GPU in every process of this distributed program; use the process's own: 'torch::Device(torch::kCUDA, local_rank)' [libtorch-cuda-device-without-rank]
  // CHECK: :[[@LINE-3]]:30: note: the program runs one process per rank: it reads its local rank here
  auto model = std::make_shared<Net>();
  model->to(device);
  return local_rank;
}

// One step removed: the device is a string with a fixed index, and a tensor
// moves straight to `kCUDA` in a helper.
torch::Tensor shard(const torch::Tensor &data) {
  return data.to(torch::kCUDA);
  // CHECK: :[[@LINE-1]]:18: warning: 'torch::kCUDA' is the current CUDA device, the same GPU in every process of this distributed program; use the process's own: 'torch::Device(torch::kCUDA, local_rank)' [libtorch-cuda-device-without-rank]
  // CHECK: :[[@LINE-14]]:30: note: the program runs one process per rank: it reads its local rank here
}

int mpiWorker() {
  torch::Device device("cuda:0");
  // CHECK: :[[@LINE-1]]:24: warning: '"cuda:0"' is one fixed GPU, the same GPU in every process of this distributed program; use the process's own: 'torch::Device(torch::kCUDA, local_rank)' [libtorch-cuda-device-without-rank]
  // CHECK: :[[@LINE-20]]:30: note: the program runs one process per rank: it reads its local rank here
  auto model = std::make_shared<Net>();
  model->to(device);
  auto batch = shard(torch::rand({8, 4}));
  return model->forward(batch).size(0);
}

// Through a helper: `.cuda()` and a fixed index inside functions that the
// worker calls.
torch::Tensor classWeights(const torch::Tensor &counts) {
  return (1.0 / counts).cuda();
  // CHECK: :[[@LINE-1]]:25: warning: '.cuda()' moves to the current CUDA device, the same GPU in every process of this distributed program; use the process's own: '.to(torch::Device(torch::kCUDA, local_rank))' [libtorch-cuda-device-without-rank]
  // CHECK: :[[@LINE-32]]:30: note: the program runs one process per rank: it reads its local rank here
}

torch::Device deviceFor() {
  return torch::Device(torch::kCUDA, 0);
  // CHECK: :[[@LINE-1]]:38: warning: 'torch::kCUDA, 0' is one fixed GPU, the same GPU in every process of this distributed program; use the process's own: 'torch::Device(torch::kCUDA, local_rank)' [libtorch-cuda-device-without-rank]
  // CHECK: :[[@LINE-38]]:30: note: the program runs one process per rank: it reads its local rank here
}

int main() {
  worker();
  mpiWorker();
  classWeights(torch::ones({2}));
  deviceFor();
}
