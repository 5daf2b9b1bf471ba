// torch/nn/parallel/data_parallel.h's declaration of data_parallel, for the
// lit cases: the header itself includes the CUDA headers, which a CPU-only
// LibTorch (Debian's 1.13, the fetched 2.14) does not ship.
#pragma once
#include <torch/torch.h>
#include <vector>

namespace torch::nn::parallel {
template <typename ModuleType>
Tensor data_parallel(ModuleType module, Tensor input,
                     c10::optional<std::vector<Device>> devices = c10::nullopt,
                     c10::optional<Device> output_device = c10::nullopt,
                     int64_t dim = 0);
} // namespace torch::nn::parallel
