// The process sets its current CUDA device from its rank before anything
// moves: `torch::kCUDA` and `.cuda()` are then its own GPU.
#include <torch/torch.h>
#include <cstdlib>
#include <string>

namespace c10 {
namespace cuda {
// c10/cuda/CUDAFunctions.h, which Debian's CPU-only LibTorch cannot include.
void set_device(c10::DeviceIndex device);
} // namespace cuda
} // namespace c10

int main() {
  int rank = std::stoi(std::getenv("LOCAL_RANK"));
  c10::cuda::set_device(static_cast<c10::DeviceIndex>(rank));
  torch::nn::Linear model(4, 2);
  model->to(torch::kCUDA);
  torch::Tensor x = torch::ones({8, 4}).cuda();
  return model->forward(x).size(0);
}
