// GRU encoder/decoder with dot-product (Luong) attention, trained to reverse token sequences.
// The source padding mask and the decoder's BOS column are built inside forward() on the
// device of the input batch.
#include <torch/torch.h>

#include <algorithm>
#include <iostream>
#include <vector>

constexpr int64_t kPad = 0, kBos = 1, kEos = 2, kVocab = 64, kMaxLen = 14;

class ReverseDataset : public torch::data::datasets::Dataset<ReverseDataset> {
 public:
  explicit ReverseDataset(size_t n) : n_(n) {}
  torch::data::Example<> get(size_t index) override {
    auto gen = at::detail::createCPUGenerator(index);
    int64_t len = torch::randint(3, kMaxLen - 1, {1}, gen).item<int64_t>();
    auto tokens = torch::randint(3, kVocab, {len}, gen, torch::kLong);
    auto src = torch::full({kMaxLen}, kPad, torch::kLong);
    auto tgt = torch::full({kMaxLen}, kPad, torch::kLong);
    src.narrow(0, 0, len).copy_(tokens);
    tgt.narrow(0, 0, len).copy_(tokens.flip(0));
    tgt[len] = kEos;
    return {src, tgt};
  }
  torch::optional<size_t> size() const override { return n_; }

 private:
  size_t n_;
};

struct Seq2SeqImpl : torch::nn::Module {
  Seq2SeqImpl(int64_t vocab, int64_t embed, int64_t hidden) {
    src_embed = register_module("src_embed", torch::nn::Embedding(vocab, embed));
    tgt_embed = register_module("tgt_embed", torch::nn::Embedding(vocab, embed));
    encoder = register_module("encoder", torch::nn::GRU(torch::nn::GRUOptions(embed, hidden).batch_first(true)));
    decoder = register_module("decoder", torch::nn::GRU(torch::nn::GRUOptions(embed, hidden).batch_first(true)));
    proj = register_module("proj", torch::nn::Linear(2 * hidden, vocab));
  }

  // Encode; returns encoder outputs [B, S, H], final state [1, B, H] and padding mask [B, 1, S].
  std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> encode(const torch::Tensor& src) {
    auto lengths = src.ne(kPad).sum(1);
    auto positions = torch::arange(src.size(1), torch::TensorOptions().dtype(torch::kLong).device(src.device()));
    auto pad_mask = (positions.unsqueeze(0) >= lengths.unsqueeze(1)).unsqueeze(1);
    auto enc = encoder->forward(src_embed(src));
    return {std::get<0>(enc), std::get<1>(enc), pad_mask};
  }

  std::tuple<torch::Tensor, torch::Tensor> decode(const torch::Tensor& tgt_in, const torch::Tensor& state,
                                                  const torch::Tensor& memory, const torch::Tensor& pad_mask) {
    auto dec = decoder->forward(tgt_embed(tgt_in), state);
    auto out = std::get<0>(dec);                                   // [B, T, H]
    auto scores = torch::bmm(out, memory.transpose(1, 2));         // [B, T, S]
    scores = scores.masked_fill(pad_mask, -1e9);
    auto attn = torch::softmax(scores, -1);
    auto context = torch::bmm(attn, memory);                       // [B, T, H]
    return {proj(torch::cat({out, context}, -1)), std::get<1>(dec)};
  }

  // Teacher forcing: the decoder reads BOS followed by the target shifted right.
  torch::Tensor forward(const torch::Tensor& src, const torch::Tensor& tgt) {
    auto [memory, state, pad_mask] = encode(src);
    auto bos = torch::full({tgt.size(0), 1}, kBos, tgt.options());
    auto tgt_in = torch::cat({bos, tgt.narrow(1, 0, tgt.size(1) - 1)}, 1);
    return std::get<0>(decode(tgt_in, state, memory, pad_mask));
  }

  torch::Tensor greedy(const torch::Tensor& src, int64_t max_len) {
    auto [memory, state, pad_mask] = encode(src);
    auto token = torch::full({src.size(0), 1}, kBos, src.options());
    std::vector<torch::Tensor> outputs;
    for (int64_t t = 0; t < max_len; ++t) {
      auto step = decode(token, state, memory, pad_mask);
      state = std::get<1>(step);
      token = std::get<0>(step).argmax(-1);
      outputs.push_back(token);
    }
    return torch::cat(outputs, 1);
  }

  torch::nn::Embedding src_embed{nullptr}, tgt_embed{nullptr};
  torch::nn::GRU encoder{nullptr}, decoder{nullptr};
  torch::nn::Linear proj{nullptr};
};
TORCH_MODULE(Seq2Seq);

int main() {
  torch::manual_seed(3);
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      ReverseDataset(20000).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(128).workers(2));

  Seq2Seq model(kVocab, 64, 256);
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));
  auto criterion = torch::nn::CrossEntropyLoss(torch::nn::CrossEntropyLossOptions().ignore_index(kPad));

  for (int epoch = 1; epoch <= 20; ++epoch) {
    model->train();
    float epoch_loss = 0.0f;
    int batches = 0;
    for (auto& batch : *loader) {
      auto src = batch.data.to(device);
      auto tgt = batch.target.to(device);
      auto logits = model(src, tgt);
      auto loss = criterion(logits.reshape({-1, kVocab}), tgt.reshape({-1}));
      optimizer.zero_grad();
      loss.backward();
      torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
      optimizer.step();
      if (batches++ % 25 == 0) {
        epoch_loss += loss.item<float>();
      }
    }
    std::cout << "epoch " << epoch << " sampled loss " << epoch_loss / ((batches + 24) / 25) << std::endl;

    model->eval();
    torch::NoGradGuard no_grad;
    auto example = ReverseDataset(1).get(0);
    auto src = example.data.unsqueeze(0).to(device);
    auto prediction = model->greedy(src, kMaxLen).to(torch::kCPU);
    std::cout << "  src  " << example.data << "\n  pred " << prediction << std::endl;
  }
}
