// GRU sequence classifier on a synthetic variable-length token dataset. Sequences are
// right-padded with 0; the padding mask is rebuilt inside forward() on the input's device.
#include <torch/torch.h>

#include <iostream>
#include <vector>

constexpr int64_t kPad = 0;
constexpr int64_t kVocab = 500;
constexpr int64_t kMaxLen = 40;
constexpr int64_t kClasses = 4;

// Each sequence's class is decided by which quarter of the vocabulary dominates it.
class SyntheticSequences : public torch::data::datasets::Dataset<SyntheticSequences> {
 public:
  explicit SyntheticSequences(int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      int64_t len = torch::randint(5, kMaxLen + 1, {1}).item<int64_t>();
      int64_t label = i % kClasses;
      int64_t lo = 1 + label * (kVocab - 1) / kClasses;
      auto tokens = torch::full({kMaxLen}, kPad, torch::kLong);
      tokens.narrow(0, 0, len).copy_(torch::randint(lo, lo + (kVocab - 1) / kClasses, {len}, torch::kLong));
      sequences_.push_back(tokens);
      labels_.push_back(label);
    }
  }

  torch::data::Example<> get(size_t index) override {
    return {sequences_[index], torch::tensor(labels_[index], torch::kLong)};
  }

  torch::optional<size_t> size() const override { return sequences_.size(); }

 private:
  std::vector<torch::Tensor> sequences_;
  std::vector<int64_t> labels_;
};

struct GRUClassifierImpl : torch::nn::Module {
  GRUClassifierImpl(int64_t vocab, int64_t embed, int64_t hidden, int64_t classes) {
    embedding = register_module("embedding", torch::nn::Embedding(torch::nn::EmbeddingOptions(vocab, embed).padding_idx(kPad)));
    gru = register_module("gru", torch::nn::GRU(torch::nn::GRUOptions(embed, hidden).batch_first(true)));
    fc = register_module("fc", torch::nn::Linear(2 * hidden, classes));
  }

  torch::Tensor forward(torch::Tensor tokens) {
    const int64_t batch = tokens.size(0), steps = tokens.size(1);
    auto lengths = tokens.ne(kPad).sum(1);  // [B]
    auto out = std::get<0>(gru->forward(embedding(tokens)));  // [B, T, H]

    // Padding mask: position t is valid for sequence b when t < lengths[b].
    auto positions = torch::arange(steps, tokens.options().dtype(torch::kLong)).unsqueeze(0).expand({batch, steps});
    auto mask = (positions < lengths.unsqueeze(1)).unsqueeze(-1).to(out.scalar_type());

    // Masked mean over the valid steps.
    auto denom = torch::ones({batch, 1}, out.options()) * lengths.clamp_min(1).unsqueeze(1).to(out.scalar_type());
    auto mean = (out * mask).sum(1) / denom;

    // Output at the last valid step of each sequence.
    auto last_index = (lengths - 1).clamp_min(0).view({batch, 1, 1}).expand({batch, 1, out.size(2)});
    auto last = out.gather(1, last_index).squeeze(1);

    return fc(torch::cat({mean, last}, 1));
  }

  torch::nn::Embedding embedding{nullptr};
  torch::nn::GRU gru{nullptr};
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(GRUClassifier);

int main() {
  torch::manual_seed(0);
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);

  auto train_set = SyntheticSequences(8000).map(torch::data::transforms::Stack<>());
  auto test_set = SyntheticSequences(1000).map(torch::data::transforms::Stack<>());
  const size_t train_size = train_set.size().value();
  const size_t test_size = test_set.size().value();
  auto train_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      std::move(train_set), torch::data::DataLoaderOptions().batch_size(64));
  auto test_loader = torch::data::make_data_loader(std::move(test_set), 256);

  GRUClassifier model(kVocab, 64, 128, kClasses);
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));

  for (int epoch = 1; epoch <= 8; ++epoch) {
    model->train();
    double running_loss = 0.0;
    size_t batch_idx = 0;
    for (auto& batch : *train_loader) {
      auto tokens = batch.data.to(device);
      auto target = batch.target.to(device);
      optimizer.zero_grad();
      auto logits = model(tokens);
      auto loss = torch::nn::functional::cross_entropy(logits, target);
      loss.backward();
      optimizer.step();
      if (++batch_idx % 20 == 0) {
        running_loss += loss.item<double>();
      }
    }
    std::cout << "epoch " << epoch << " sampled loss " << running_loss / (batch_idx / 20)
              << " (" << train_size << " sequences)" << std::endl;

    model->eval();
    torch::NoGradGuard no_grad;
    auto correct = torch::zeros({}, torch::TensorOptions().dtype(torch::kLong).device(device));
    for (const auto& batch : *test_loader) {
      auto tokens = batch.data.to(device);
      auto target = batch.target.to(device);
      auto pred = model(tokens).argmax(1);
      correct += pred.eq(target).sum();
    }
    std::cout << "  test accuracy " << correct.item<double>() / test_size << std::endl;
  }
}
