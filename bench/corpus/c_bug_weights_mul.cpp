// Imbalanced 3-class image classifier with a class-weighted loss and per-channel
// input normalisation (bug report: "weighted cross_entropy fails on GPU").
#include <torch/torch.h>

#include <iostream>

namespace F = torch::nn::functional;

class ImbalancedPatches : public torch::data::datasets::Dataset<ImbalancedPatches> {
 public:
  explicit ImbalancedPatches(int64_t n) {
    // 60% class 0, 10% class 1, 30% class 2
    labels_ = torch::multinomial(torch::tensor({0.6, 0.1, 0.3}), n, /*replacement=*/true);
    images_ = torch::rand({n, 3, 32, 32}) * 0.5 + labels_.view({n, 1, 1, 1}).to(torch::kFloat) * 0.25;
  }
  torch::data::Example<> get(size_t i) override { return {images_[i], labels_[i]}; }
  torch::optional<size_t> size() const override { return labels_.size(0); }

 private:
  torch::Tensor images_, labels_;
};

struct PatchNet : torch::nn::Module {
  PatchNet() {
    conv1 = register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 32, 3).padding(1)));
    conv2 = register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 64, 3).padding(1)));
    bn1 = register_module("bn1", torch::nn::BatchNorm2d(32));
    bn2 = register_module("bn2", torch::nn::BatchNorm2d(64));
    fc = register_module("fc", torch::nn::Linear(64, 3));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::max_pool2d(torch::relu(bn1->forward(conv1->forward(x))), 2);
    x = torch::relu(bn2->forward(conv2->forward(x)));
    x = torch::adaptive_avg_pool2d(x, {1, 1}).flatten(1);
    return fc->forward(x);
  }
  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
  torch::nn::BatchNorm2d bn1{nullptr}, bn2{nullptr};
  torch::nn::Linear fc{nullptr};
};

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);

  auto model = std::make_shared<PatchNet>();
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));

  // Inverse-frequency-ish class weights and dataset statistics.
  auto class_weights = torch::tensor({1.0, 2.0, 0.5});
  auto mean = torch::tensor({0.45, 0.45, 0.45}).view({1, 3, 1, 1});
  auto stddev = torch::tensor({0.25, 0.25, 0.25}).view({1, 3, 1, 1});

  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      ImbalancedPatches(6000).map(torch::data::transforms::Stack<>()), 64);

  for (int epoch = 1; epoch <= 8; ++epoch) {
    model->train();
    auto epoch_loss = torch::zeros({1}, torch::TensorOptions().device(device));
    int64_t batches = 0;
    for (auto& batch : *loader) {
      auto data = batch.data.to(device);
      auto target = batch.target.to(device);
      auto mean_d = mean.to(device);  // torchtidy-expect: libtorch-loop-invariant-transfer
      auto std_d = stddev.to(device);  // torchtidy-expect: libtorch-loop-invariant-transfer
      data = (data - mean_d) / std_d;

      optimizer.zero_grad();
      auto output = model->forward(data);
      auto loss = F::cross_entropy(output, target, F::CrossEntropyFuncOptions().weight(class_weights));  // torchtidy-expect: libtorch-missing-target-migration
      loss.backward();
      optimizer.step();
      epoch_loss += loss.detach();
      ++batches;
    }
    std::cout << "epoch " << epoch << " weighted loss " << (epoch_loss / batches).item<float>()
              << std::endl;
  }

  // Class-weighted scores on one held-out batch.
  torch::NoGradGuard no_grad;
  model->eval();
  auto held_out = torch::rand({8, 3, 32, 32}).to(device);
  auto probs = torch::softmax(model->forward((held_out - mean.to(device)) / stddev.to(device)), 1);
  auto weighted = probs * class_weights;  // torchtidy-expect: libtorch-missing-target-migration
  std::cout << "weighted argmax: " << weighted.argmax(1) << std::endl;
  return 0;
}
