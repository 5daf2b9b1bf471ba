// Convolutional denoising autoencoder on MNIST: Gaussian noise is added on the device of the
// batch, and the network learns to reconstruct the clean digits. Batches are copied from
// pinned host memory when training on a GPU.
#include <torch/torch.h>

#include <iostream>

struct DenoiserImpl : torch::nn::Module {
  DenoiserImpl() {
    encoder = register_module("encoder", torch::nn::Sequential(
        torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 32, 3).stride(2).padding(1)), torch::nn::ReLU(),
        torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 64, 3).stride(2).padding(1)), torch::nn::ReLU()));
    decoder = register_module("decoder", torch::nn::Sequential(
        torch::nn::ConvTranspose2d(torch::nn::ConvTranspose2dOptions(64, 32, 4).stride(2).padding(1)),
        torch::nn::ReLU(),
        torch::nn::ConvTranspose2d(torch::nn::ConvTranspose2dOptions(32, 1, 4).stride(2).padding(1)),
        torch::nn::Sigmoid()));
  }
  at::Tensor forward(at::Tensor x) { return decoder->forward(encoder->forward(x)); }

  torch::nn::Sequential encoder{nullptr}, decoder{nullptr};
};
TORCH_MODULE(Denoiser);

// Corrupt a batch with N(0, sigma^2) noise created next to it.
at::Tensor add_noise(const at::Tensor& x, double sigma) {
  at::Tensor noise = torch::randn(x.sizes(), x.options()) * sigma;
  return (x + noise).clamp(0.0, 1.0);
}

template <typename Loader>
void train(Denoiser& model, Loader& loader, torch::optim::SGD& optimizer, torch::Device device, int epoch) {
  model->train();
  double running_loss = 0.0;
  int64_t n = 0;
  for (auto& batch : loader) {
    at::Tensor clean;
    if (device.is_cuda()) {
      auto pinned = batch.data.pin_memory();
      clean = pinned.to(device, /*non_blocking=*/true);
    } else {
      clean = batch.data.to(device);
    }
    at::Tensor noisy = add_noise(clean, 0.4);
    optimizer.zero_grad();
    at::Tensor recon = model(noisy);
    at::Tensor loss = torch::mse_loss(recon, clean);
    loss.backward();
    optimizer.step();
    if (++n % 50 == 0) {
      running_loss += loss.item<double>();
      std::cout << "epoch " << epoch << " batch " << n << " mse " << loss.item<double>() << std::endl;
    }
  }
  std::cout << "epoch " << epoch << " mean sampled mse " << running_loss / (n / 50) << std::endl;
}

template <typename Loader>
double test(Denoiser& model, Loader& loader, torch::Device device) {
  c10::InferenceMode guard;
  model->eval();
  at::Tensor total = torch::zeros({}, device);
  int64_t batches = 0;
  for (const auto& batch : loader) {
    at::Tensor clean = batch.data.to(device);
    total += torch::mse_loss(model(add_noise(clean, 0.4)), clean);
    ++batches;
  }
  return total.item<double>() / batches;
}

int main() {
  torch::manual_seed(0);
  torch::Device device(torch::kCPU);
  if (torch::cuda::is_available()) {
    device = torch::Device(torch::kCUDA, 0);
  }

  auto train_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      torch::data::datasets::MNIST("./data").map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(128).workers(4));
  auto test_loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./data", torch::data::datasets::MNIST::Mode::kTest)
          .map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(512));

  Denoiser model;
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));

  for (int epoch = 1; epoch <= 12; ++epoch) {
    train(model, *train_loader, optimizer, device, epoch);
    std::cout << "test mse: " << test(model, *test_loader, device) << std::endl;
    torch::save(model, "denoiser.pt");
  }
}
