// Inference with a saved checkpoint: the model is trained briefly and saved,
// then reloaded with torch::load and run under torch::NoGradGuard and
// c10::InferenceMode; predictions are brought back to the host once.
#include <torch/torch.h>

#include <iostream>
#include <string>
#include <vector>

struct TextClassifierImpl : torch::nn::Module {
  TextClassifierImpl(int64_t vocab, int64_t dim, int64_t classes)
      : embedding(register_module("embedding", torch::nn::Embedding(vocab, dim))),
        hidden(register_module("hidden", torch::nn::Linear(dim, dim))),
        out(register_module("out", torch::nn::Linear(dim, classes))) {}

  torch::Tensor forward(torch::Tensor tokens) {
    auto emb = embedding(tokens).mean(1);  // bag of embeddings
    return out(torch::gelu(hidden(emb)));
  }

  torch::nn::Embedding embedding;
  torch::nn::Linear hidden, out;
};
TORCH_MODULE(TextClassifier);

const int64_t kVocab = 1000, kDim = 64, kClasses = 4, kSeqLen = 20;

void train_and_save(const std::string& path, torch::Device device) {
  TextClassifier model(kVocab, kDim, kClasses);
  model->to(device);
  torch::optim::Adam opt(model->parameters(), 1e-3);
  for (int step = 0; step < 200; ++step) {
    auto tokens = torch::randint(0, kVocab, {32, kSeqLen}, torch::kLong).to(device);
    auto labels = (tokens.select(1, 0) % kClasses);
    opt.zero_grad();
    auto loss = torch::cross_entropy_loss(model(tokens), labels);
    loss.backward();
    opt.step();
    if (step % 50 == 0) {
      std::cout << "step " << step << " loss " << loss.item<float>() << std::endl;
    }
  }
  torch::save(model, path);
}

// Validation accuracy with autograd disabled through NoGradGuard.
double validate(TextClassifier& model, torch::Device device) {
  torch::NoGradGuard no_grad;
  model->eval();
  auto tokens = torch::randint(0, kVocab, {512, kSeqLen}, torch::kLong).to(device);
  auto labels = tokens.select(1, 0) % kClasses;
  auto pred = model->forward(tokens).argmax(/*dim=*/1);
  return pred.eq(labels).to(torch::kFloat).mean().item<double>();
}

int main(int argc, char** argv) {
  const std::string checkpoint = argc > 1 ? argv[1] : "text_classifier.pt";
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);

  train_and_save(checkpoint, device);

  // Reload on the host, then move to the serving device.
  TextClassifier model(kVocab, kDim, kClasses);
  torch::load(model, checkpoint);
  model->to(device);
  model->eval();

  std::cout << "validation accuracy: " << validate(model, device) << std::endl;

  // Batched serving: requests are built on the host, moved once per batch.
  std::vector<torch::Tensor> requests;
  for (int i = 0; i < 8; ++i) {
    requests.push_back(torch::randint(0, kVocab, {16, kSeqLen}, torch::kLong));
  }

  std::vector<torch::Tensor> predictions;
  {
    c10::InferenceMode guard;
    for (const auto& request : requests) {
      auto input = request.to(device);
      auto probs = torch::softmax(model(input), /*dim=*/-1);
      predictions.push_back(probs.argmax(-1));
    }
  }

  // One transfer back to the host for printing.
  auto all_preds = torch::cat(predictions).cpu();
  auto counts = torch::bincount(all_preds, /*weights=*/{}, kClasses);
  std::cout << "predicted class histogram: " << counts << std::endl;
  std::cout << "first predictions: " << all_preds.slice(0, 0, 10) << std::endl;
  return 0;
}
