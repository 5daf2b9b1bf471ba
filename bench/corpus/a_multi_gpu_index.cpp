// Training on an explicitly indexed GPU: on a multi-GPU box the second card
// (cuda:1) is used by default so that cuda:0 stays free for another job; falls back to
// cuda:0 or the CPU. Model and every batch are moved to that one device.
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>

torch::Device select_device(bool use_second_gpu) {
  if (!torch::cuda::is_available()) {
    return torch::Device(torch::kCPU);
  }
  if (use_second_gpu && torch::cuda::device_count() > 1) {
    return torch::Device(torch::kCUDA, 1);
  }
  return torch::Device(torch::kCUDA, 0);
}

struct AutoencoderImpl : torch::nn::Module {
  explicit AutoencoderImpl(int64_t in_dim, int64_t code_dim) {
    encoder = register_module("encoder", torch::nn::Sequential(
                                             torch::nn::Linear(in_dim, 128),
                                             torch::nn::ReLU(),
                                             torch::nn::Linear(128, code_dim)));
    decoder = register_module("decoder", torch::nn::Sequential(
                                             torch::nn::Linear(code_dim, 128),
                                             torch::nn::ReLU(),
                                             torch::nn::Linear(128, in_dim),
                                             torch::nn::Sigmoid()));
  }

  torch::Tensor forward(torch::Tensor x) {
    return decoder->forward(encoder->forward(x));
  }

  torch::nn::Sequential encoder{nullptr}, decoder{nullptr};
};
TORCH_MODULE(Autoencoder);

int main(int argc, char* argv[]) {
  const bool use_second_gpu = argc > 1 ? std::atoi(argv[1]) != 0 : true;
  const torch::Device device = select_device(use_second_gpu);
  std::cout << "CUDA devices: " << torch::cuda::device_count()
            << ", training on " << device << std::endl;

  Autoencoder model(784, 32);
  model->to(device);

  // Synthetic "images" in [0, 1].
  auto dataset = torch::data::datasets::TensorDataset(torch::rand({2048, 784}))
                     .map(torch::data::transforms::Stack<torch::data::TensorExample>());
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      std::move(dataset), /*batch_size=*/128);

  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(2e-3));

  for (int epoch = 1; epoch <= 10; ++epoch) {
    double running_loss = 0.0;
    int64_t seen = 0;
    for (auto& batch : *loader) {
      auto images = batch.data.to(device);
      auto noisy = (images + 0.1 * torch::randn_like(images)).clamp(0, 1);

      optimizer.zero_grad();
      auto recon = model->forward(noisy);
      auto loss = torch::binary_cross_entropy(recon, images);
      loss.backward();
      optimizer.step();

      running_loss += loss.item<double>() * images.size(0); // torchtidy-expect: libtorch-host-sync-in-loop
      seen += images.size(0);
    }
    std::cout << "epoch " << epoch << " reconstruction loss "
              << running_loss / seen << std::endl;
  }

  // Check where the parameters ended up.
  for (const auto& p : model->named_parameters()) {
    std::cout << p.key() << " on " << p.value().device() << std::endl;
    break;
  }
  return 0;
}
