// A CPU fallback in a catch, as the source article advises, whose second
// move throws after the first has happened: the weights are on the
// accelerator (argv[1]; meta stands in for it), the move of the mean to
// argv[2] throws (a CUDA device this machine does not have), the handler
// switches the device to the CPU, and the product after the try mixes the
// CPU with the weights left on the accelerator. Nothing catches that error:
// the program dies of it, as the static finding says it would.
#include <torch/torch.h>

#include <iostream>

int main(int argc, char **argv) {
  torch::Device device(argc > 1 ? argv[1] : "cpu");
  torch::Tensor weights = torch::ones({4});
  torch::Tensor mean = torch::zeros({4});
  try {
    weights = weights.to(device);
    mean = mean.to(torch::Device(argc > 2 ? argv[2] : "cpu"));
  } catch (const c10::Error &) {
    std::cout << "falling back to the CPU" << std::endl;
    device = torch::kCPU;
  }
  torch::Tensor x = torch::rand({4}).to(device);
  torch::Tensor y = (x - mean) * weights;
  std::cout << "sum " << y.sum().item<float>() << "\n";
  return 0;
}
