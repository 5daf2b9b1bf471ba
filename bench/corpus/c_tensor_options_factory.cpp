// Tiny single-head causal attention language model on synthetic arithmetic
// sequences; all factories go through one TensorOptions bound to the device.
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <limits>

struct TinyLMImpl : torch::nn::Module {
  TinyLMImpl(int64_t vocab, int64_t max_len, int64_t dim) : dim_(dim) {
    tok_emb = register_module("tok_emb", torch::nn::Embedding(vocab, dim));
    pos_emb = register_module("pos_emb", torch::nn::Embedding(max_len, dim));
    qkv = register_module("qkv", torch::nn::Linear(dim, 3 * dim));
    proj = register_module("proj", torch::nn::Linear(dim, dim));
    norm = register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim})));
    head = register_module("head", torch::nn::Linear(dim, vocab));
  }

  torch::Tensor forward(const torch::Tensor& x) {
    const int64_t T = x.size(1);
    auto positions = torch::arange(T, x.options().dtype(torch::kLong));
    auto h = tok_emb(x) + pos_emb(positions);  // [B, T, D] + [T, D]

    auto parts = qkv(norm(h)).chunk(3, /*dim=*/-1);
    auto scores = torch::matmul(parts[0], parts[1].transpose(-2, -1)) / std::sqrt(static_cast<double>(dim_));
    auto causal = torch::full({T, T}, -std::numeric_limits<float>::infinity(), scores.options()).triu(1);
    auto attn = torch::softmax(scores + causal, /*dim=*/-1);
    h = h + proj(torch::matmul(attn, parts[2]));
    return head(h);  // [B, T, vocab]
  }

  int64_t dim_;
  torch::nn::Embedding tok_emb{nullptr}, pos_emb{nullptr};
  torch::nn::Linear qkv{nullptr}, proj{nullptr}, head{nullptr};
  torch::nn::LayerNorm norm{nullptr};
};
TORCH_MODULE(TinyLM);

// Sequences a, a+s, a+2s, ... (mod vocab) with random start a and stride s.
torch::Tensor make_batch(int64_t batch, int64_t len, int64_t vocab, const torch::TensorOptions& opts) {
  auto start = torch::randint(0, vocab, {batch, 1}, opts.dtype(torch::kLong));
  auto stride = torch::randint(1, 5, {batch, 1}, opts.dtype(torch::kLong));
  auto steps = torch::arange(len, opts.dtype(torch::kLong)).unsqueeze(0);
  return (start + stride * steps).remainder(vocab);
}

int main() {
  torch::Device device(torch::kCPU);
  if (torch::cuda::is_available()) device = torch::Device(torch::kCUDA);
  torch::TensorOptions opts = torch::TensorOptions().dtype(torch::kFloat32).device(device);

  const int64_t vocab = 64, seq_len = 32, dim = 96, batch = 128;
  TinyLM model(vocab, seq_len, dim);
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));

  // Fixed validation set, created once directly on the device.
  auto val_seq = make_batch(512, seq_len + 1, vocab, opts);

  for (int step = 1; step <= 2000; ++step) {
    model->train();
    auto seq = make_batch(batch, seq_len + 1, vocab, opts);
    auto inputs = seq.slice(1, 0, seq_len);
    auto targets = seq.slice(1, 1, seq_len + 1);

    auto logits = model(inputs);
    auto loss = torch::nn::functional::cross_entropy(logits.reshape({-1, vocab}), targets.reshape({-1}));
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();

    if (step % 200 == 0) {
      torch::NoGradGuard no_grad;
      model->eval();
      auto val_logits = model(val_seq.slice(1, 0, seq_len));
      auto acc = val_logits.argmax(-1).eq(val_seq.slice(1, 1, seq_len + 1)).to(torch::kFloat).mean();
      std::cout << "step " << step << "  loss " << loss.item<float>()
                << "  val next-token acc " << acc.item<float>() << std::endl;
    }
  }
  return 0;
}
