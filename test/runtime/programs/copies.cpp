// Copies between the host and the device named by argv[1] ("meta" stands in
// for "cuda"): three non_blocking copies from pageable memory (one event,
// counted 3 times), a blocking copy (no event), a non_blocking copy from
// pinned memory where CUDA exists (no event), and a device-to-host copy (a
// sync; from "meta" it raises, which the program catches).
#include <torch/torch.h>

#include <iostream>

int main(int argc, char **argv) {
  torch::Device device(argc > 1 ? argv[1] : "cpu");
  torch::Tensor host = torch::ones({4, 4});

  torch::Tensor remote;
  for (int step = 0; step < 3; ++step)
    remote = host.to(device, /*non_blocking=*/true);

  torch::Tensor blocking = host.to(device);

  if (torch::cuda::is_available()) {
    torch::Tensor pinned = host.pin_memory();
    torch::Tensor fast = pinned.to(device, /*non_blocking=*/true);
  }

  try {
    torch::Tensor back = remote.to(torch::kCPU);
    std::cout << "back " << back.sum().item<float>() << "\n";
  } catch (const c10::Error &) {
    std::cout << "no data to copy back from " << device << "\n";
  }
  std::cout << "shape " << blocking.sizes() << "\n";
  return 0;
}
