// Multiplies a tensor on the device named by argv[1] by a CPU tensor. On any
// device but the CPU the op raises, nothing catches the c10::Error, and the
// program dies through std::terminate: the shim's report must still hold the
// mixed_device event, recorded before the op raised, and the exception.
#include <torch/torch.h>

#include <iostream>

int main(int argc, char **argv) {
  torch::Device device(argc > 1 ? argv[1] : "cpu");
  torch::Tensor weights = torch::ones({1, 10}, device);
  torch::Tensor inputs = torch::ones({10});
  torch::Tensor scaled = weights * inputs; // mixed when device is not the CPU
  std::cout << "sum " << scaled.sum().item<float>() << "\n";
  return 0;
}
