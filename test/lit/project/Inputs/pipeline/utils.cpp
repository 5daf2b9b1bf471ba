#include "data.h"

torch::Tensor toTensor(const std::vector<int64_t> &ids, torch::Device device) {
  return torch::tensor(ids).to(device);
}
