#pragma once
#include <torch/torch.h>

// Sentences of token ids and their tags, read from a file.
class SentenceDataset
    : public torch::data::datasets::Dataset<SentenceDataset> {
public:
  explicit SentenceDataset(const std::string &path);
  torch::data::Example<> get(size_t index) override;
  torch::optional<size_t> size() const override;

private:
  std::vector<std::vector<int64_t>> sentences, tags;
  torch::Device device;
};

// utils.cpp
torch::Tensor toTensor(const std::vector<int64_t> &ids, torch::Device device);
