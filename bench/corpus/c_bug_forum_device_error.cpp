// Forum post: "Training works, but inference throws RuntimeError: Expected all
// tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"
#include <torch/torch.h>

#include <iostream>

struct SmallVGGImpl : torch::nn::Module {
  SmallVGGImpl(int64_t num_classes) {
    features = register_module("features", torch::nn::Sequential(
        torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).padding(1)),
        torch::nn::ReLU(),
        torch::nn::MaxPool2d(torch::nn::MaxPool2dOptions(2)),
        torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 32, 3).padding(1)),
        torch::nn::ReLU(),
        torch::nn::MaxPool2d(torch::nn::MaxPool2dOptions(2)),
        torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 64, 3).padding(1)),
        torch::nn::ReLU(),
        torch::nn::AdaptiveAvgPool2d(torch::nn::AdaptiveAvgPool2dOptions({7, 7}))));
    classifier = register_module("classifier", torch::nn::Sequential(
        torch::nn::Flatten(),
        torch::nn::Linear(64 * 7 * 7, 256),
        torch::nn::ReLU(),
        torch::nn::Dropout(0.5),
        torch::nn::Linear(256, num_classes)));
  }

  torch::Tensor forward(torch::Tensor x) {
    return classifier->forward(features->forward(x));
  }

  torch::nn::Sequential features{nullptr}, classifier{nullptr};
};
TORCH_MODULE(SmallVGG);

class RandomImages : public torch::data::datasets::Dataset<RandomImages> {
 public:
  torch::data::Example<> get(size_t index) override {
    auto label = static_cast<int64_t>(index % 5);
    auto image = torch::randn({3, 224, 224}) + 0.5 * static_cast<double>(label);
    return {image, torch::tensor(label)};
  }
  torch::optional<size_t> size() const override { return 1000; }
};

int main() {
  torch::Device device(torch::kCPU);
  if (torch::cuda::is_available()) {
    std::cout << "CUDA available! Training on GPU." << std::endl;
    device = torch::Device(torch::kCUDA);
  }

  SmallVGG model(5);
  model->to(device);

  auto loader = torch::data::make_data_loader(
      RandomImages().map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(32).workers(4));
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));

  for (int epoch = 0; epoch < 2; ++epoch) {
    model->train();
    int batch_index = 0;
    for (auto& batch : *loader) {
      auto images = batch.data.to(device);
      auto labels = batch.target.to(device);
      optimizer.zero_grad();
      auto out = model->forward(images);
      auto loss = torch::nn::functional::cross_entropy(out, labels);
      loss.backward();
      optimizer.step();
      if (++batch_index % 10 == 0) {
        std::cout << "Epoch: " << epoch << " | Batch: " << batch_index
                  << " | Loss: " << loss.item<float>() << std::endl;
      }
    }
  }
  std::cout << "Training done, testing a single image..." << std::endl;

  // Crashes here.
  model->eval();
  torch::NoGradGuard no_grad;
  torch::Tensor input = torch::randn({1, 3, 224, 224});
  torch::Tensor output = model->forward(input);  // torchtidy-expect: libtorch-missing-target-migration
  auto prediction = output.argmax(1);
  std::cout << "Predicted class: " << prediction.item<int64_t>() << std::endl;
  std::cout << "Probabilities: " << torch::softmax(output, 1) << std::endl;
  return 0;
}
