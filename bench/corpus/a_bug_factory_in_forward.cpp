// A tiny GPT-style character model. The causal mask is built inside
// forward() with torch::ones({T, T}) and no device, so it stays on the CPU
// and masked_fill fails once the model runs on the GPU.
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <limits>

struct CausalSelfAttentionImpl : torch::nn::Module {
  CausalSelfAttentionImpl(int64_t embed_dim, int64_t heads)
      : n_head(heads), head_dim(embed_dim / heads) {
    qkv = register_module("qkv", torch::nn::Linear(embed_dim, 3 * embed_dim));
    proj = register_module("proj", torch::nn::Linear(embed_dim, embed_dim));
  }

  torch::Tensor forward(torch::Tensor x) {
    const auto B = x.size(0), T = x.size(1), C = x.size(2);
    auto parts = qkv(x).chunk(3, /*dim=*/-1);
    auto q = parts[0].view({B, T, n_head, head_dim}).transpose(1, 2);
    auto k = parts[1].view({B, T, n_head, head_dim}).transpose(1, 2);
    auto v = parts[2].view({B, T, n_head, head_dim}).transpose(1, 2);

    auto att = torch::matmul(q, k.transpose(-2, -1)) / std::sqrt(static_cast<double>(head_dim));
    auto mask = torch::ones({T, T}).tril();
    att = att.masked_fill(mask == 0, -std::numeric_limits<float>::infinity()); // torchtidy-expect: libtorch-mixed-device-operands
    att = torch::softmax(att, /*dim=*/-1);
    auto y = torch::matmul(att, v).transpose(1, 2).contiguous().view({B, T, C});
    return proj(y);
  }

  int64_t n_head, head_dim;
  torch::nn::Linear qkv{nullptr}, proj{nullptr};
};
TORCH_MODULE(CausalSelfAttention);

struct TinyGptImpl : torch::nn::Module {
  TinyGptImpl(int64_t vocab, int64_t block_size, int64_t dim, int64_t heads) {
    tok_emb = register_module("tok_emb", torch::nn::Embedding(vocab, dim));
    pos_emb = register_module("pos_emb", torch::nn::Embedding(block_size, dim));
    ln1 = register_module("ln1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim})));
    attn = register_module("attn", CausalSelfAttention(dim, heads));
    ln2 = register_module("ln2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim})));
    mlp = register_module("mlp", torch::nn::Sequential(torch::nn::Linear(dim, 4 * dim),
                                                       torch::nn::GELU(),
                                                       torch::nn::Linear(4 * dim, dim)));
    head = register_module("head", torch::nn::Linear(dim, vocab));
  }

  torch::Tensor forward(torch::Tensor idx) {
    const auto T = idx.size(1);
    auto pos = torch::arange(T, idx.options().dtype(torch::kLong));
    auto x = tok_emb(idx) + pos_emb(pos).unsqueeze(0);
    x = x + attn(ln1(x));
    x = x + mlp->forward(ln2(x));
    return head(x);
  }

  torch::nn::Embedding tok_emb{nullptr}, pos_emb{nullptr};
  torch::nn::LayerNorm ln1{nullptr}, ln2{nullptr};
  CausalSelfAttention attn{nullptr};
  torch::nn::Sequential mlp{nullptr};
  torch::nn::Linear head{nullptr};
};
TORCH_MODULE(TinyGpt);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t vocab = 27, block = 32, batch = 16;

  // Synthetic corpus: a repeating alphabet with random jumps.
  auto corpus = (torch::arange(20000) + torch::randint(0, 3, {20000}, torch::kLong).cumsum(0)) % vocab;

  TinyGpt model(vocab, block, /*dim=*/64, /*heads=*/4);
  model->to(device);
  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(3e-4));

  float smoothed = 0.f;
  for (int step = 1; step <= 500; ++step) {
    auto starts = torch::randint(0, corpus.size(0) - block - 1, {batch}, torch::kLong);
    auto offsets = torch::arange(block, torch::kLong);
    auto index = starts.unsqueeze(1) + offsets.unsqueeze(0);
    auto inputs = corpus.index({index}).to(device);
    auto targets = corpus.index({index + 1}).to(device);

    optimizer.zero_grad();
    auto logits = model(inputs);
    auto loss = torch::nn::functional::cross_entropy(logits.view({-1, vocab}),
                                                     targets.view({-1}));
    loss.backward();
    optimizer.step();

    if (step % 50 == 0) {
      smoothed = 0.9f * smoothed + 0.1f * loss.item<float>();
      std::cout << "step " << step << " loss " << loss.item<float>()
                << " (smoothed " << smoothed << ")" << std::endl;
    }
  }
  return 0;
}
