// Transfer learning: a pretrained convolutional backbone is restored with torch::load, frozen,
// and a new linear head is trained on a small dataset of preprocessed image tensors.
#include <torch/torch.h>

#include <iostream>
#include <string>

struct BackboneImpl : torch::nn::Module {
  BackboneImpl() {
    features = register_module("features", torch::nn::Sequential(
        torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 32, 3).padding(1)),
        torch::nn::BatchNorm2d(32), torch::nn::ReLU(), torch::nn::MaxPool2d(2),
        torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 64, 3).padding(1)),
        torch::nn::BatchNorm2d(64), torch::nn::ReLU(), torch::nn::MaxPool2d(2),
        torch::nn::Conv2d(torch::nn::Conv2dOptions(64, 128, 3).padding(1)),
        torch::nn::BatchNorm2d(128), torch::nn::ReLU(),
        torch::nn::AdaptiveAvgPool2d(torch::nn::AdaptiveAvgPool2dOptions({1, 1}))));
  }
  torch::Tensor forward(torch::Tensor x) { return features->forward(x).flatten(1); }
  torch::nn::Sequential features{nullptr};
};
TORCH_MODULE(Backbone);

// Images were resized and normalised offline and stored as two tensors.
class ImageTensorDataset : public torch::data::datasets::Dataset<ImageTensorDataset> {
 public:
  ImageTensorDataset(const std::string& images_path, const std::string& labels_path) {
    torch::load(images_, images_path);
    torch::load(labels_, labels_path);
  }
  torch::data::Example<> get(size_t index) override { return {images_[index], labels_[index]}; }
  torch::optional<size_t> size() const override { return images_.size(0); }

 private:
  torch::Tensor images_, labels_;
};

template <typename DataLoader>
double train_epoch(Backbone& backbone, torch::nn::Linear& head, DataLoader& loader,
                   torch::optim::Optimizer& optimizer, const torch::Device& device) {
  head->train();
  backbone->eval();  // keep the frozen BatchNorm statistics
  double running_loss = 0.0;
  size_t batches = 0;
  for (auto& batch : loader) {
    auto data = batch.data.to(device);
    auto target = batch.target.to(device);
    optimizer.zero_grad();
    torch::Tensor features;
    {
      torch::NoGradGuard no_grad;
      features = backbone->forward(data);
    }
    auto output = head->forward(features);
    torch::Tensor loss = torch::nn::functional::cross_entropy(output, target);
    loss.backward();
    optimizer.step();
    running_loss += loss.item<double>(); // torchtidy-expect: libtorch-host-sync-in-loop
    ++batches;
  }
  return running_loss / batches;
}

template <typename DataLoader>
double evaluate(Backbone& backbone, torch::nn::Linear& head, DataLoader& loader, const torch::Device& device) {
  torch::NoGradGuard no_grad;
  head->eval();
  backbone->eval();
  int64_t correct = 0, total = 0;
  for (auto& batch : loader) {
    torch::Tensor data = batch.data.to(device);
    torch::Tensor target = batch.target.to(device);
    torch::Tensor prediction = head->forward(backbone->forward(data)).argmax(1);
    correct += prediction.eq(target).sum().item<int64_t>(); // torchtidy-expect: libtorch-host-sync-in-loop
    total += target.size(0);
  }
  return static_cast<double>(correct) / total;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: transfer <backbone.pt> [num_classes]" << std::endl;
    return 1;
  }
  const int64_t num_classes = argc > 2 ? std::stoll(argv[2]) : 2;
  torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);

  Backbone backbone;
  torch::load(backbone, argv[1]);
  for (auto& param : backbone->parameters()) {
    param.requires_grad_(false);
  }
  torch::nn::Linear head(128, num_classes);

  backbone->to(device);
  head->to(device);

  auto train_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      ImageTensorDataset("train_images.pt", "train_labels.pt").map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(32).workers(2));
  auto valid_loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      ImageTensorDataset("valid_images.pt", "valid_labels.pt").map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(64));

  // Only the head's parameters are optimised.
  torch::optim::Adam optimizer(head->parameters(), torch::optim::AdamOptions(1e-3));

  double best = 0.0;
  for (int epoch = 1; epoch <= 15; ++epoch) {
    double loss = train_epoch(backbone, head, *train_loader, optimizer, device);
    double accuracy = evaluate(backbone, head, *valid_loader, device);
    std::cout << "epoch " << epoch << " loss " << loss << " valid acc " << accuracy << std::endl;
    if (accuracy > best) {
      best = accuracy;
      torch::save(head, "head_best.pt");
    }
  }
}
