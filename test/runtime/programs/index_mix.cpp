// Advanced indexing's exemption is for CPU index tensors only: a tensor on
// the device named by argv[1] ("meta") written with values left on the CPU
// is a device mix (meta does not check it; CUDA raises), and so is a CPU
// tensor indexed by a tensor on the device (which raises, here caught).
#include <torch/torch.h>

#include <iostream>

int main(int argc, char **argv) {
  torch::Device device(argc > 1 ? argv[1] : "cpu");
  torch::Tensor table = torch::zeros({4, 3}, device);
  torch::Tensor rows = torch::tensor({0, 2}, torch::kLong); // on the CPU
  table.index_put_({rows}, torch::ones({2, 3}));            // values on the CPU

  torch::Tensor host = torch::zeros({4, 3});
  try {
    torch::Tensor picked = host.index({rows.to(device)});
    std::cout << "picked " << picked.sizes() << "\n";
  } catch (const c10::Error &) {
    std::cout << "cannot index a CPU tensor with " << device << " indices\n";
  }
  return 0;
}
