// Variational autoencoder on MNIST (port of the PyTorch VAE example): reparameterisation
// trick, BCE + KL loss, and sampling new digits from the prior after each epoch.
#include <torch/torch.h>

#include <iostream>
#include <memory>
#include <tuple>

struct VAE : torch::nn::Module {
  VAE() {
    fc1 = register_module("fc1", torch::nn::Linear(784, 400));
    fc21 = register_module("fc21", torch::nn::Linear(400, 20));
    fc22 = register_module("fc22", torch::nn::Linear(400, 20));
    fc3 = register_module("fc3", torch::nn::Linear(20, 400));
    fc4 = register_module("fc4", torch::nn::Linear(400, 784));
  }

  std::tuple<torch::Tensor, torch::Tensor> encode(const torch::Tensor& x) {
    auto h1 = torch::relu(fc1->forward(x));
    return {fc21->forward(h1), fc22->forward(h1)};
  }

  torch::Tensor reparameterize(const torch::Tensor& mu, const torch::Tensor& logvar) {
    auto std = torch::exp(0.5 * logvar);
    auto eps = torch::randn_like(std);
    return mu + eps * std;
  }

  torch::Tensor decode(const torch::Tensor& z) {
    auto h3 = torch::relu(fc3->forward(z));
    return torch::sigmoid(fc4->forward(h3));
  }

  std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> forward(const torch::Tensor& x) {
    torch::Tensor mu, logvar;
    std::tie(mu, logvar) = encode(x.view({-1, 784}));
    auto z = reparameterize(mu, logvar);
    return {decode(z), mu, logvar};
  }

  torch::nn::Linear fc1{nullptr}, fc21{nullptr}, fc22{nullptr}, fc3{nullptr}, fc4{nullptr};
};

// Reconstruction + KL divergence losses summed over all elements and the batch.
torch::Tensor loss_function(const torch::Tensor& recon_x, const torch::Tensor& x,
                            const torch::Tensor& mu, const torch::Tensor& logvar) {
  auto bce = torch::binary_cross_entropy(recon_x, x.view({-1, 784}), {}, at::Reduction::Sum);
  auto kld = -0.5 * torch::sum(1 + logvar - mu.pow(2) - logvar.exp());
  return bce + kld;
}

int main() {
  torch::manual_seed(1);
  torch::Device device(torch::kCPU);
  if (torch::cuda::is_available()) device = torch::Device(torch::kCUDA);

  auto train_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      torch::data::datasets::MNIST("./data").map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(128).workers(2));
  auto test_dataset = torch::data::datasets::MNIST("./data", torch::data::datasets::MNIST::Mode::kTest)
                          .map(torch::data::transforms::Stack<>());
  const double test_size = test_dataset.size().value();
  auto test_loader = torch::data::make_data_loader(std::move(test_dataset), 128);

  auto model = std::make_shared<VAE>();
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));

  for (int epoch = 1; epoch <= 10; ++epoch) {
    model->train();
    double train_loss = 0.0;
    int64_t seen = 0;
    int batch_idx = 0;
    for (auto& batch : *train_loader) {
      auto data = batch.data.to(device);
      optimizer.zero_grad();
      torch::Tensor recon, mu, logvar;
      std::tie(recon, mu, logvar) = model->forward(data);
      auto loss = loss_function(recon, data, mu, logvar);
      loss.backward();
      optimizer.step();
      seen += data.size(0);
      if (batch_idx++ % 10 == 0) {
        train_loss += loss.item<double>();
        std::printf("Train Epoch: %d [%5ld] Loss: %.6f\n", epoch, static_cast<long>(seen),
                    loss.item<double>() / data.size(0));
      }
    }
    std::cout << "====> Epoch " << epoch << " sampled loss sum: " << train_loss << std::endl;

    model->eval();
    {
      torch::NoGradGuard no_grad;
      double test_loss = 0.0;
      for (auto& batch : *test_loader) {
        auto data = batch.data.to(device);
        auto [recon, mu, logvar] = model->forward(data);
        test_loss += loss_function(recon, data, mu, logvar).item<double>(); // torchtidy-expect: libtorch-host-sync-in-loop
      }
      std::cout << "====> Test set loss: " << test_loss / test_size << std::endl;

      // Sample 64 digits from the prior N(0, I).
      auto sample = torch::randn({64, 20}, device);
      auto images = model->decode(sample).cpu().view({64, 1, 28, 28});
      torch::save(images, "sample_" + std::to_string(epoch) + ".pt");
    }
  }
  torch::save(model, "vae.pt");
}
