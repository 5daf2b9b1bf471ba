// Word-level LSTM language model trained on a synthetic token stream with truncated BPTT:
// the hidden state is carried from batch to batch and detached, gradients are clipped.
#include <torch/torch.h>

#include <iostream>
#include <tuple>

using Hidden = std::tuple<torch::Tensor, torch::Tensor>;

struct RNNModelImpl : torch::nn::Module {
  RNNModelImpl(int64_t ntoken, int64_t ninp, int64_t nhid, int64_t nlayers, double dropout)
      : nhid_(nhid), nlayers_(nlayers) {
    encoder = register_module("encoder", torch::nn::Embedding(ntoken, ninp));
    rnn = register_module(
        "rnn", torch::nn::LSTM(torch::nn::LSTMOptions(ninp, nhid).num_layers(nlayers).dropout(dropout)));
    decoder = register_module("decoder", torch::nn::Linear(nhid, ntoken));
    drop = register_module("drop", torch::nn::Dropout(dropout));
    encoder->weight.data().uniform_(-0.1, 0.1);
    decoder->weight.data().uniform_(-0.1, 0.1);
    decoder->bias.data().zero_();
  }

  std::tuple<torch::Tensor, Hidden> forward(const torch::Tensor& input, const Hidden& hidden) {
    auto emb = drop(encoder(input));
    auto out = rnn->forward(emb, hidden);
    auto output = drop(std::get<0>(out));
    auto decoded = decoder(output.view({-1, nhid_}));
    return {decoded, std::get<1>(out)};
  }

  Hidden init_hidden(int64_t bsz, torch::Device device) const {
    return {torch::zeros({nlayers_, bsz, nhid_}, device), torch::zeros({nlayers_, bsz, nhid_}, device)};
  }

  int64_t nhid_, nlayers_;
  torch::nn::Embedding encoder{nullptr};
  torch::nn::LSTM rnn{nullptr};
  torch::nn::Linear decoder{nullptr};
  torch::nn::Dropout drop{nullptr};
};
TORCH_MODULE(RNNModel);

// A toy corpus: a noisy repeating pattern of token ids, so the model has something to learn.
torch::Tensor make_stream(int64_t length, int64_t ntoken) {
  auto base = torch::arange(length, torch::kLong).remainder(17);
  auto noise = torch::randint(0, ntoken, {length}, torch::kLong);
  auto keep = torch::rand({length}) < 0.9;
  return torch::where(keep, base, noise);
}

// Reshape a 1-D stream into [nbatch, bsz] columns, dropping the tail.
torch::Tensor batchify(const torch::Tensor& data, int64_t bsz) {
  int64_t nbatch = data.size(0) / bsz;
  return data.narrow(0, 0, nbatch * bsz).view({bsz, -1}).t().contiguous();
}

Hidden repackage(const Hidden& h) {
  return {std::get<0>(h).detach(), std::get<1>(h).detach()};
}

int main() {
  torch::manual_seed(42);
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  const int64_t ntoken = 1000, bptt = 35, batch_size = 20;
  const double clip = 0.25;
  double lr = 20.0;

  auto train_data = batchify(make_stream(200000, ntoken), batch_size);

  RNNModel model(ntoken, 200, 200, 2, 0.2);
  model->to(device);
  torch::nn::CrossEntropyLoss criterion;
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(lr));

  for (int epoch = 1; epoch <= 6; ++epoch) {
    model->train();
    Hidden hidden = model->init_hidden(batch_size, device);
    double total_loss = 0.0;
    int64_t batch = 0;
    for (int64_t i = 0; i < train_data.size(0) - 1; i += bptt, ++batch) {
      int64_t seq_len = std::min(bptt, train_data.size(0) - 1 - i);
      auto data = train_data.narrow(0, i, seq_len).to(device);
      auto target = train_data.narrow(0, i + 1, seq_len).reshape({-1}).to(device);

      // Truncated BPTT: keep the values of the hidden state, cut its history.
      hidden = repackage(hidden);
      optimizer.zero_grad();
      auto result = model->forward(data, hidden);
      hidden = std::get<1>(result);
      auto loss = criterion(std::get<0>(result), target);
      loss.backward();
      torch::nn::utils::clip_grad_norm_(model->parameters(), clip);
      optimizer.step();

      total_loss += loss.item<double>(); // torchtidy-expect: libtorch-host-sync-in-loop
      if (batch % 200 == 0 && batch > 0) {
        double cur_loss = total_loss / 200;
        std::cout << "| epoch " << epoch << " | batch " << batch << " | loss " << cur_loss
                  << " | ppl " << std::exp(cur_loss) << std::endl;
        total_loss = 0.0;
      }
    }
    lr /= 4.0;
    for (auto& group : optimizer.param_groups()) {
      static_cast<torch::optim::SGDOptions&>(group.options()).lr(lr);
    }
  }
  torch::save(model, "lstm_lm.pt");
}
