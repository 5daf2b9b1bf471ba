// One process, one GPU: the program reads no rank and creates no process
// group, so `torch::kCUDA` is the GPU it means (hardcoded-device's matter,
// not this check's).
#include <torch/torch.h>

int main() {
  torch::Device device(torch::kCUDA);
  torch::nn::Linear model(4, 2);
  model->to(device);
  return model->forward(torch::ones({8, 4}).to(device)).size(0);
}
