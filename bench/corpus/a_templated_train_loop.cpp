// A generic train_epoch/evaluate pair templated on the model and the data
// loader, used to train both an MLP (nn::Sequential) and a small CNN on the
// same synthetic digit-like data.
#include <torch/torch.h>

#include <iostream>
#include <string>

template <typename Model, typename Loader>
double train_epoch(Model& model, Loader& loader, torch::optim::Optimizer& optimizer,
                   torch::Device device, int64_t log_every) {
  model->train();
  double running_loss = 0.0;
  int64_t batches = 0;
  for (auto& batch : loader) {
    auto data = batch.data.to(device);
    auto target = batch.target.to(device);

    optimizer.zero_grad();
    torch::Tensor output = model->forward(data);
    torch::Tensor loss = torch::nn::functional::cross_entropy(output, target);
    loss.backward();
    optimizer.step();

    running_loss += loss.template item<double>(); // torchtidy-expect: libtorch-host-sync-in-loop
    if (++batches % log_every == 0) {
      std::cout << "  batch " << batches << " avg loss " << running_loss / batches
                << std::endl;
    }
  }
  return running_loss / static_cast<double>(batches);
}

template <typename Model, typename Loader>
double evaluate(Model& model, Loader& loader, torch::Device device) {
  torch::NoGradGuard no_grad;
  model->eval();
  int64_t correct = 0, total = 0;
  for (auto& batch : loader) {
    auto data = batch.data.to(device);
    auto target = batch.target.to(device);
    auto pred = model->forward(data).argmax(1);
    correct += pred.eq(target).sum().template item<int64_t>(); // torchtidy-expect: libtorch-host-sync-in-loop
    total += target.size(0);
  }
  return static_cast<double>(correct) / static_cast<double>(total);
}

struct SmallCnnImpl : torch::nn::Module {
  SmallCnnImpl() {
    conv1 = register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 8, 3).padding(1)));
    conv2 = register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(8, 16, 3).padding(1)));
    fc = register_module("fc", torch::nn::Linear(16 * 7 * 7, 10));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::max_pool2d(torch::relu(conv1(x)), 2);
    x = torch::max_pool2d(torch::relu(conv2(x)), 2);
    return fc(x.view({x.size(0), -1}));
  }
  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(SmallCnn);

// 28x28 images whose class is encoded in the brightest row band.
class BandDigits : public torch::data::datasets::Dataset<BandDigits> {
 public:
  explicit BandDigits(int64_t n) {
    labels_ = torch::randint(0, 10, {n}, torch::kLong);
    images_ = torch::rand({n, 1, 28, 28}) * 0.1;
    auto rows = torch::arange(28).view({1, 28});
    auto band = (rows - (labels_.view({n, 1}) * 2 + 4)).abs() <= 1;
    images_ += 0.9 * band.to(torch::kFloat).view({n, 1, 28, 1});
  }
  torch::data::Example<> get(size_t i) override { return {images_[i], labels_[i]}; }
  torch::optional<size_t> size() const override { return labels_.size(0); }

 private:
  torch::Tensor images_, labels_;
};

int main() {
  torch::manual_seed(2024);
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  auto train_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      BandDigits(6000).map(torch::data::transforms::Stack<>()), /*batch_size=*/64);
  auto test_loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      BandDigits(1000).map(torch::data::transforms::Stack<>()), /*batch_size=*/256);

  // Model 1: a plain MLP built from nn::Sequential.
  torch::nn::Sequential mlp(torch::nn::Flatten(),
                            torch::nn::Linear(28 * 28, 128),
                            torch::nn::ReLU(),
                            torch::nn::Linear(128, 10));
  mlp->to(device);
  torch::optim::SGD mlp_opt(mlp->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));

  // Model 2: a small CNN module holder.
  SmallCnn cnn;
  cnn->to(device);
  torch::optim::Adam cnn_opt(cnn->parameters(), torch::optim::AdamOptions(1e-3));

  for (int epoch = 1; epoch <= 3; ++epoch) {
    std::cout << "epoch " << epoch << " [mlp]" << std::endl;
    const double mlp_loss = train_epoch(mlp, *train_loader, mlp_opt, device, 50);
    std::cout << "epoch " << epoch << " [cnn]" << std::endl;
    const double cnn_loss = train_epoch(cnn, *train_loader, cnn_opt, device, 50);
    std::cout << "train loss mlp=" << mlp_loss << " cnn=" << cnn_loss << std::endl;
  }

  std::cout << "test accuracy mlp=" << evaluate(mlp, *test_loader, device)
            << " cnn=" << evaluate(cnn, *test_loader, device) << std::endl;
  return 0;
}
