// A device mix inside a standard algorithm: std::accumulate adds tensors on
// argv[1]'s device to a CPU one. The call site is this file's line, not the
// algorithm's in the C++ library's headers, also when those are a system
// root's (cmake/UnpackedDebianRoot.cmake) rather than /usr/include.
#include <torch/torch.h>

#include <iostream>
#include <numeric>
#include <vector>

int main(int argc, char **argv) {
  torch::Device device(argc > 1 ? argv[1] : "cpu");
  std::vector<torch::Tensor> parts = {torch::ones({3}, device),
                                      torch::ones({3}, device)};
  try {
    torch::Tensor total =
        std::accumulate(parts.begin(), parts.end(), torch::zeros({3}));
    std::cout << "total " << total.sum().item<float>() << "\n";
  } catch (const c10::Error &) {
    std::cout << "device error\n";
  }
  return 0;
}
