// A CIFAR network ported from Python layer by layer, the way a forum post
// shows it: every layer is assigned in the constructor and none is passed to
// register_module ("loss never goes down, and parameters() is empty").
// One root cause: the class forgot registration as a whole.
#include <torch/torch.h>

#include <iostream>

struct SmallNetImpl : torch::nn::Module {
  SmallNetImpl() {
    conv1 = torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).padding(1)); // torchtidy-expect: libtorch-unregistered-module-member
    bn1 = torch::nn::BatchNorm2d(16);
    conv2 = torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 32, 3).padding(1));
    bn2 = torch::nn::BatchNorm2d(32);
    fc = torch::nn::Linear(32 * 8 * 8, 10);
    dropout = torch::nn::Dropout(0.3);
  }

  torch::Tensor forward(torch::Tensor x) {
    x = torch::max_pool2d(torch::relu(bn1(conv1(x))), 2);
    x = torch::max_pool2d(torch::relu(bn2(conv2(x))), 2);
    x = dropout(x.flatten(1));
    return fc(x);
  }

  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
  torch::nn::BatchNorm2d bn1{nullptr}, bn2{nullptr};
  torch::nn::Linear fc{nullptr};
  torch::nn::Dropout dropout{nullptr};
};
TORCH_MODULE(SmallNet);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  SmallNet model;
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), 0.01);
  auto dataset = torch::data::datasets::TensorDataset(
      torch::randn({128, 3, 32, 32}));
  auto loader = torch::data::make_data_loader(
      dataset.map(torch::data::transforms::Stack<torch::data::TensorExample>()),
      torch::data::DataLoaderOptions(32));
  for (int epoch = 0; epoch < 3; ++epoch) {
    model->train();
    double total = 0;
    for (auto &batch : *loader) {
      auto images = batch.data.to(device);
      auto labels = torch::randint(10, {images.size(0)}, torch::TensorOptions(device).dtype(torch::kLong));
      optimizer.zero_grad();
      auto loss = torch::cross_entropy_loss(model->forward(images), labels);
      loss.backward();
      optimizer.step();
      total += loss.item<double>(); // torchtidy-expect: libtorch-host-sync-in-loop
    }
    std::cout << "epoch " << epoch << " loss " << total << "\n";
  }
}
