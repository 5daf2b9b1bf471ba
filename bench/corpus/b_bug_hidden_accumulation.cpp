// GRU language model on a synthetic token stream. Bugs: the hidden state is carried from batch
// to batch without .detach() (its history links every batch's graph to the previous one), and
// every batch's loss tensor is kept in a vector for the epoch summary.
#include <torch/torch.h>

#include <iostream>
#include <memory>
#include <vector>

struct WordRNN : torch::nn::Module {
  WordRNN(int64_t vocab, int64_t embed, int64_t hidden) {
    embedding = register_module("embedding", torch::nn::Embedding(vocab, embed));
    gru = register_module("gru", torch::nn::GRU(torch::nn::GRUOptions(embed, hidden)));
    fc = register_module("fc", torch::nn::Linear(hidden, vocab));
  }

  // input: [T, B] token ids, h: [1, B, H]. Returns logits [T*B, V] and the new hidden state.
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& input, const torch::Tensor& h) {
    auto out = gru->forward(embedding->forward(input), h);
    auto output = std::get<0>(out);
    auto logits = fc->forward(output.reshape({-1, output.size(2)}));
    return {logits, std::get<1>(out)};
  }

  torch::nn::Embedding embedding{nullptr};
  torch::nn::GRU gru{nullptr};
  torch::nn::Linear fc{nullptr};
};

torch::Tensor synthetic_corpus(int64_t n_tokens, int64_t vocab) {
  // Tokens follow t[i+1] = (3 * t[i] + 1) mod vocab, with 10% random replacements.
  std::vector<int64_t> ids(n_tokens);
  ids[0] = 1;
  for (int64_t i = 1; i < n_tokens; ++i) ids[i] = (3 * ids[i - 1] + 1) % vocab;
  auto stream = torch::tensor(ids, torch::kLong);
  auto replace = torch::rand({n_tokens}) < 0.1;
  return torch::where(replace, torch::randint(vocab, {n_tokens}, torch::kLong), stream);
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t vocab = 2000, batch_size = 32, seq_len = 30, hidden_size = 256;

  auto stream = synthetic_corpus(300000, vocab);
  int64_t columns = stream.size(0) / batch_size;
  auto train_data = stream.narrow(0, 0, columns * batch_size).view({batch_size, columns}).t().contiguous().to(device);

  auto model = std::make_shared<WordRNN>(vocab, 128, hidden_size);
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(2e-3));

  for (int epoch = 1; epoch <= 5; ++epoch) {
    model->train();
    std::vector<torch::Tensor> losses;
    torch::Tensor hidden = torch::zeros({1, batch_size, hidden_size}, device);
    for (int64_t i = 0; i + seq_len + 1 <= train_data.size(0); i += seq_len) {
      auto input = train_data.narrow(0, i, seq_len);
      auto target = train_data.narrow(0, i + 1, seq_len).reshape({-1});

      optimizer.zero_grad();
      auto result = model->forward(input, hidden);
      hidden = result.second;
      auto loss = torch::nn::functional::cross_entropy(result.first, target);
      loss.backward();
      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.5);
      optimizer.step();

      losses.push_back(loss); // torchtidy-expect: libtorch-graph-retaining-accumulation
      if (losses.size() % 100 == 0) {
        std::cout << "epoch " << epoch << " batch " << losses.size() << " loss " << loss.item<float>()
                  << std::endl;
      }
    }
    auto mean_loss = torch::stack(losses).mean().item<float>();
    std::cout << "epoch " << epoch << " mean loss " << mean_loss << " ppl " << std::exp(mean_loss)
              << std::endl;
  }
  torch::save(model, "word_rnn.pt");
}
