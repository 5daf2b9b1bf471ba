// MNIST training that can be interrupted and resumed: model, optimizer and epoch
// counter are written with torch::save and restored with torch::load on restart.
#include <torch/torch.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

struct MnistNet : torch::nn::Module {
  MnistNet() {
    fc1 = register_module("fc1", torch::nn::Linear(784, 256));
    fc2 = register_module("fc2", torch::nn::Linear(256, 128));
    fc3 = register_module("fc3", torch::nn::Linear(128, 10));
    dropout = register_module("dropout", torch::nn::Dropout(0.2));
  }

  torch::Tensor forward(torch::Tensor x) {
    x = x.view({x.size(0), 784});
    x = torch::relu(fc1->forward(x));
    x = dropout->forward(x);
    x = torch::relu(fc2->forward(x));
    return torch::log_softmax(fc3->forward(x), /*dim=*/1);
  }

  torch::nn::Linear fc1{nullptr}, fc2{nullptr}, fc3{nullptr};
  torch::nn::Dropout dropout{nullptr};
};

static bool file_exists(const std::string& path) {
  std::ifstream f(path);
  return f.good();
}

int main(int argc, char* argv[]) {
  const std::string data_dir = argc > 1 ? argv[1] : "./mnist";
  const std::string model_ckpt = "checkpoint_model.pt";
  const std::string optim_ckpt = "checkpoint_optim.pt";
  const std::string epoch_ckpt = "checkpoint_epoch.pt";
  const int total_epochs = 10;
  const int log_interval = 100;

  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);

  auto model = std::make_shared<MnistNet>();
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));

  int start_epoch = 1;
  if (file_exists(model_ckpt) && file_exists(optim_ckpt)) {
    std::cout << "Resuming from " << model_ckpt << std::endl;
    torch::load(model, model_ckpt, torch::Device(torch::kCPU));
    // Map the momentum buffers straight onto the training device.
    torch::load(optimizer, optim_ckpt, device);
    torch::Tensor last_epoch;
    torch::load(last_epoch, epoch_ckpt);
    start_epoch = last_epoch.item<int>() + 1;
  }
  model->to(device);

  auto train_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      torch::data::datasets::MNIST(data_dir)
          .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
          .map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(64).workers(2));

  for (int epoch = start_epoch; epoch <= total_epochs; ++epoch) {
    model->train();
    size_t batch_idx = 0;
    for (auto& batch : *train_loader) {
      auto data = batch.data.to(device);
      auto target = batch.target.to(device);

      optimizer.zero_grad();
      auto output = model->forward(data);
      auto loss = torch::nll_loss(output, target);
      loss.backward();
      optimizer.step();

      if (batch_idx++ % log_interval == 0) {
        std::printf("Train Epoch: %d [%5zu] Loss: %.4f\n", epoch, batch_idx * 64,
                    loss.item<float>());
      }
    }

    torch::save(model, model_ckpt);
    torch::save(optimizer, optim_ckpt);
    torch::save(torch::tensor(epoch), epoch_ckpt);
    std::cout << "Saved checkpoint for epoch " << epoch << std::endl;
  }
  return 0;
}
