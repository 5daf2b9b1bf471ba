// Operands on several devices that LibTorch accepts, none of them an event:
// 0-dim CPU tensors used as scalars, copies between devices, indexing with
// CPU index tensors, and ops that only read another tensor's shape. Run with
// argv[1] = "meta" (a stand-in for "cuda").
#include <torch/torch.h>

#include <iostream>

int main(int argc, char **argv) {
  torch::Device device(argc > 1 ? argv[1] : "cpu");
  torch::Tensor x = torch::ones({4, 3}, device);

  torch::Tensor scale = torch::tensor(2.0); // 0-dim, on the CPU
  torch::Tensor y = x * scale;
  y.add_(scale);

  // (Module::to(meta) fails in LibTorch 1.13: modules stay on the CPU here.)
  torch::Tensor weight = torch::ones({3, 2}, device);
  torch::Tensor out = y.mm(weight);

  torch::Tensor rows = torch::tensor({0, 2}, torch::kLong); // on the CPU
  torch::Tensor picked = x.index({rows});
  x.index_put_({rows}, torch::zeros({2, 3}, device));

  torch::Tensor host = torch::zeros({4, 3});
  torch::Tensor copied = torch::empty({4, 3}, device);
  copied.copy_(host);
  torch::Tensor moved = host.to(device);
  torch::Tensor expanded = torch::ones({1, 3}, device).expand_as(host);

  std::cout << "shapes " << out.sizes() << " " << picked.sizes() << " "
            << moved.sizes() << " " << expanded.sizes() << "\n";
  return 0;
}
