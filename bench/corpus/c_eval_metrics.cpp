// Evaluation of a trained MNIST classifier: accuracy and a 10x10 confusion
// matrix computed over the test set under NoGradGuard.
#include <torch/torch.h>

#include <cstdio>
#include <iostream>
#include <string>

struct NetImpl : torch::nn::Module {
  NetImpl() {
    conv1 = register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 10, 5)));
    conv2 = register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(10, 20, 5)));
    fc1 = register_module("fc1", torch::nn::Linear(320, 50));
    fc2 = register_module("fc2", torch::nn::Linear(50, 10));
  }

  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(torch::max_pool2d(conv1->forward(x), 2));
    x = torch::relu(torch::max_pool2d(conv2->forward(x), 2));
    x = x.view({-1, 320});
    x = torch::relu(fc1->forward(x));
    return torch::log_softmax(fc2->forward(x), /*dim=*/1);
  }

  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};
TORCH_MODULE(Net);

template <typename DataLoader>
torch::Tensor evaluate(Net& model, DataLoader& loader, torch::Device device, size_t dataset_size) {
  torch::NoGradGuard no_grad;
  model->eval();

  int64_t correct = 0;
  auto confusion = torch::zeros({10, 10}, torch::kLong);

  for (const auto& batch : loader) {
    torch::Tensor data = batch.data.to(device);
    torch::Tensor target = batch.target.to(device);
    torch::Tensor output = model->forward(data);
    torch::Tensor pred = output.argmax(1);
    correct += pred.eq(target).sum().item<int64_t>();  // torchtidy-expect: libtorch-host-sync-in-loop

    // Confusion matrix is accumulated on the host, one copy per batch.
    auto pred_cpu = pred.cpu();  // torchtidy-expect: libtorch-host-sync-in-loop
    torch::Tensor target_cpu = batch.target;
    auto p = pred_cpu.accessor<int64_t, 1>();
    auto t = target_cpu.accessor<int64_t, 1>();
    auto cm = confusion.accessor<int64_t, 2>();
    for (int64_t i = 0; i < p.size(0); ++i) {
      cm[t[i]][p[i]] += 1;
    }
  }

  std::printf("Test accuracy: %ld/%zu (%.2f%%)\n", static_cast<long>(correct), dataset_size,
              100.0 * static_cast<double>(correct) / static_cast<double>(dataset_size));
  return confusion;
}

int main(int argc, char** argv) {
  const std::string data_root = argc > 1 ? argv[1] : "./data";
  const std::string checkpoint = argc > 2 ? argv[2] : "mnist_cnn.pt";

  torch::DeviceType device_type = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  torch::Device device(device_type);

  Net model;
  torch::load(model, checkpoint);
  model->to(device);

  auto test_dataset = torch::data::datasets::MNIST(data_root, torch::data::datasets::MNIST::Mode::kTest)
                          .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
                          .map(torch::data::transforms::Stack<>());
  const size_t test_size = test_dataset.size().value();
  auto test_loader = torch::data::make_data_loader(std::move(test_dataset), 1000);

  torch::Tensor confusion = evaluate(model, *test_loader, device, test_size);

  std::cout << "Confusion matrix (rows = true class, cols = predicted):\n" << confusion << std::endl;
  auto per_class = confusion.diag().to(torch::kDouble) / confusion.sum(1).to(torch::kDouble);
  for (int64_t c = 0; c < 10; ++c) {
    std::printf("  class %ld recall %.3f\n", static_cast<long>(c), per_class[c].item<double>());
  }
  return 0;
}
