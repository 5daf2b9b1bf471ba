#include "data.h"

SentenceDataset::SentenceDataset(const std::string &path)
    : device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU) {}

torch::data::Example<> SentenceDataset::get(size_t index) {
  return {toTensor(sentences[index], device), toTensor(tags[index], device)};
}

torch::optional<size_t> SentenceDataset::size() const {
  return sentences.size();
}
