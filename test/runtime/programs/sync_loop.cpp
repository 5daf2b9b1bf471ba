// Reads a value back to the host in every iteration: item() and nonzero()
// make the host wait for the device. On a CPU-only machine the shim counts
// them all the same ("would sync"): one event per call site, counted 50
// times, item() once and not once more for the _local_scalar_dense inside.
#include <torch/torch.h>

#include <iostream>

int main(int argc, char **argv) {
  torch::Device device(argc > 1 ? argv[1] : "cpu");
  torch::Tensor values = torch::arange(10, torch::TensorOptions(device));
  double total = 0;
  int64_t hits = 0;
  for (int step = 0; step < 50; ++step) {
    torch::Tensor scaled = values * step;
    total += scaled.sum().item<double>();         // a sync per iteration
    hits += torch::nonzero(scaled > 100).size(0); // and another
  }
  std::cout << "total " << total << " hits " << hits << "\n";
  return 0;
}
