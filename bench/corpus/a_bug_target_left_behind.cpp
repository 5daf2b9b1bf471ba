// MNIST training in the style of a forum question: the images are moved to
// the GPU but the labels are not, so nll_loss fails with "Expected all
// tensors to be on the same device" as soon as CUDA is available.
#include <torch/torch.h>

#include <iostream>

struct MnistNet : torch::nn::Module {
  MnistNet() {
    conv1 = register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 32, 3)));
    conv2 = register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 64, 3)));
    dropout = register_module("dropout", torch::nn::Dropout(0.25));
    fc1 = register_module("fc1", torch::nn::Linear(9216, 128));
    fc2 = register_module("fc2", torch::nn::Linear(128, 10));
  }

  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(conv1->forward(x));
    x = torch::relu(conv2->forward(x));
    x = torch::max_pool2d(x, 2);
    x = dropout->forward(x);
    x = torch::flatten(x, 1);
    x = torch::relu(fc1->forward(x));
    x = fc2->forward(x);
    return torch::log_softmax(x, 1);
  }

  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
  torch::nn::Dropout dropout{nullptr};
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};

int main() {
  torch::Device device(torch::kCPU);
  if (torch::cuda::is_available()) {
    std::cout << "Using CUDA" << std::endl;
    device = torch::Device(torch::kCUDA);
  }

  auto net = std::make_shared<MnistNet>();
  net->to(device);

  auto train_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      torch::data::datasets::MNIST("./mnist")
          .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
          .map(torch::data::transforms::Stack<>()),
      /*batch_size=*/64);

  auto test_loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./mnist", torch::data::datasets::MNIST::Mode::kTest)
          .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
          .map(torch::data::transforms::Stack<>()),
      /*batch_size=*/1000);

  torch::optim::Adagrad optimizer(net->parameters(), torch::optim::AdagradOptions(0.01));

  for (size_t epoch = 1; epoch <= 5; ++epoch) {
    net->train();
    size_t batch_index = 0;
    for (auto& batch : *train_loader) {
      torch::Tensor data = batch.data.to(device);
      torch::Tensor target = batch.target;

      optimizer.zero_grad();
      torch::Tensor prediction = net->forward(data);
      torch::Tensor loss = torch::nll_loss(prediction, target); // torchtidy-expect: libtorch-missing-target-migration
      loss.backward();
      optimizer.step();

      if (++batch_index % 100 == 0) {
        std::cout << "Epoch: " << epoch << " | Batch: " << batch_index
                  << " | Loss: " << loss.item<float>() << std::endl;
      }
    }

    net->eval();
    torch::NoGradGuard no_grad;
    auto correct = torch::zeros({}, torch::TensorOptions().dtype(torch::kLong).device(device));
    int64_t total = 0;
    for (const auto& batch : *test_loader) {
      auto data = batch.data.to(device);
      auto target = batch.target.to(device);
      auto output = net->forward(data);
      correct += output.argmax(1).eq(target).sum();
      total += batch.data.size(0);
    }
    std::cout << "Test accuracy: "
              << static_cast<double>(correct.item<int64_t>()) / total << std::endl;
  }
  return 0;
}
