// Data pipeline with a custom in-memory dataset: each stacked batch is pinned
// on the host and copied to the GPU asynchronously (non_blocking) before training.
#include <torch/torch.h>

#include <iostream>
#include <vector>

class SyntheticImages : public torch::data::datasets::Dataset<SyntheticImages> {
 public:
  explicit SyntheticImages(int64_t size) : images_(torch::rand({size, 1, 28, 28})),
                                           labels_(torch::randint(0, 10, {size}, torch::kLong)) {}

  torch::data::Example<> get(size_t index) override {
    return {images_[index], labels_[index]};
  }

  torch::optional<size_t> size() const override {
    return images_.size(0);
  }

 private:
  torch::Tensor images_;
  torch::Tensor labels_;
};

struct ConvNetImpl : torch::nn::Module {
  ConvNetImpl()
      : conv1(torch::nn::Conv2dOptions(1, 16, 3).padding(1)),
        conv2(torch::nn::Conv2dOptions(16, 32, 3).padding(1)),
        fc(32 * 7 * 7, 10) {
    register_module("conv1", conv1);
    register_module("conv2", conv2);
    register_module("fc", fc);
  }

  torch::Tensor forward(torch::Tensor x) {
    x = torch::max_pool2d(torch::relu(conv1(x)), 2);
    x = torch::max_pool2d(torch::relu(conv2(x)), 2);
    x = x.flatten(1);
    return fc(x);
  }

  torch::nn::Conv2d conv1, conv2;
  torch::nn::Linear fc;
};
TORCH_MODULE(ConvNet);

int main() {
  torch::Device device(torch::kCPU);
  if (torch::cuda::is_available()) {
    device = torch::Device(torch::kCUDA, 0);
  }
  std::cout << "Using device " << device << std::endl;

  auto dataset = SyntheticImages(4096).map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      std::move(dataset), torch::data::DataLoaderOptions().batch_size(128).workers(2));

  ConvNet model;
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(),
                              torch::optim::SGDOptions(0.05).momentum(0.9));

  const bool use_pinned = device.is_cuda();
  for (size_t epoch = 1; epoch <= 3; ++epoch) {
    model->train();
    double running_loss = 0.0;
    size_t batch_idx = 0;
    for (auto& batch : *loader) {
      torch::Tensor data, target;
      if (use_pinned) {
        auto pinned = batch.data.pin_memory();
        auto pinned_target = batch.target.pin_memory();
        data = pinned.to(device, /*non_blocking=*/true);
        target = pinned_target.to(device, /*non_blocking=*/true);
      } else {
        data = batch.data.to(device);
        target = batch.target.to(device);
      }

      optimizer.zero_grad();
      auto output = model(data);
      auto loss = torch::nn::functional::cross_entropy(output, target);
      loss.backward();
      optimizer.step();

      if (++batch_idx % 10 == 0) {
        running_loss += loss.item<double>();
        std::cout << "epoch " << epoch << " batch " << batch_idx
                  << " loss " << loss.item<float>() << std::endl;
      }
    }
    std::cout << "epoch " << epoch << " sampled mean loss "
              << running_loss / static_cast<double>(batch_idx / 10) << std::endl;
  }
  return 0;
}
