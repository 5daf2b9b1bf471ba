// CIFAR-10 style CNN trained with Adam on a synthetic dataset of random
// 3x32x32 images (no files needed), then evaluated for test accuracy.
#include <torch/torch.h>

#include <iomanip>
#include <iostream>

class RandomImageDataset
    : public torch::data::datasets::Dataset<RandomImageDataset> {
 public:
  RandomImageDataset(int64_t size, int64_t num_classes, uint64_t seed) {
    torch::manual_seed(seed);
    images_ = torch::randn({size, 3, 32, 32});
    labels_ = torch::randint(0, num_classes, {size}, torch::kLong);
  }

  torch::data::Example<> get(size_t index) override {
    return {images_[index], labels_[index]};
  }

  torch::optional<size_t> size() const override {
    return static_cast<size_t>(images_.size(0));
  }

 private:
  torch::Tensor images_;
  torch::Tensor labels_;
};

struct CifarNetImpl : torch::nn::Module {
  CifarNetImpl(int64_t num_classes) {
    conv1 = register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 32, 3).padding(1)));
    bn1 = register_module("bn1", torch::nn::BatchNorm2d(32));
    conv2 = register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 64, 3).padding(1)));
    bn2 = register_module("bn2", torch::nn::BatchNorm2d(64));
    conv3 = register_module("conv3", torch::nn::Conv2d(torch::nn::Conv2dOptions(64, 128, 3).padding(1)));
    bn3 = register_module("bn3", torch::nn::BatchNorm2d(128));
    fc1 = register_module("fc1", torch::nn::Linear(128 * 4 * 4, 256));
    fc2 = register_module("fc2", torch::nn::Linear(256, num_classes));
  }

  torch::Tensor forward(torch::Tensor x) {
    x = torch::max_pool2d(torch::relu(bn1(conv1(x))), 2);  // 16x16
    x = torch::max_pool2d(torch::relu(bn2(conv2(x))), 2);  // 8x8
    x = torch::max_pool2d(torch::relu(bn3(conv3(x))), 2);  // 4x4
    x = x.flatten(1);
    x = torch::dropout(torch::relu(fc1(x)), 0.3, is_training());
    return fc2(x);
  }

  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr}, conv3{nullptr};
  torch::nn::BatchNorm2d bn1{nullptr}, bn2{nullptr}, bn3{nullptr};
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};
TORCH_MODULE(CifarNet);

int main() {
  const int64_t kNumClasses = 10;
  const int64_t kBatchSize = 128;
  const int kEpochs = 5;

  torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA)
                                                     : torch::Device(torch::kCPU);
  std::cout << "Using device: " << device << std::endl;

  auto train_set = RandomImageDataset(5000, kNumClasses, 42)
                       .map(torch::data::transforms::Stack<>());
  auto test_set = RandomImageDataset(1000, kNumClasses, 7)
                      .map(torch::data::transforms::Stack<>());
  const auto num_test = test_set.size().value();

  auto train_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      std::move(train_set),
      torch::data::DataLoaderOptions().batch_size(kBatchSize).workers(2));
  auto test_loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      std::move(test_set), kBatchSize);

  CifarNet model(kNumClasses);
  model->to(device);

  torch::optim::Adam optimizer(model->parameters(),
                               torch::optim::AdamOptions(1e-3).weight_decay(1e-4));
  torch::nn::CrossEntropyLoss criterion;

  for (int epoch = 1; epoch <= kEpochs; ++epoch) {
    model->train();
    double running_loss = 0.0;
    int64_t num_batches = 0;
    for (auto& batch : *train_loader) {
      auto images = batch.data.to(device);
      auto labels = batch.target.to(device);

      optimizer.zero_grad();
      auto logits = model(images);
      auto loss = criterion(logits, labels);
      loss.backward();
      optimizer.step();

      running_loss += loss.item<double>(); // torchtidy-expect: libtorch-host-sync-in-loop
      ++num_batches;
    }
    std::cout << "Epoch [" << epoch << "/" << kEpochs << "] "
              << "train loss: " << std::fixed << std::setprecision(4)
              << running_loss / num_batches << std::endl;
  }

  // Test accuracy: count correct predictions on the device, read once.
  model->eval();
  torch::NoGradGuard no_grad;
  auto correct = torch::zeros({}, torch::TensorOptions().dtype(torch::kLong).device(device));
  for (const auto& batch : *test_loader) {
    auto images = batch.data.to(device);
    auto labels = batch.target.to(device);
    auto predicted = model(images).argmax(1);
    correct += predicted.eq(labels).sum();
  }
  const double accuracy = 100.0 * correct.item<int64_t>() / num_test;
  std::cout << "Test accuracy: " << accuracy << "%" << std::endl;

  return 0;
}
