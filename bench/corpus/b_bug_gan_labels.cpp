// Fully connected GAN on MNIST. Bug: the "real" label tensor is created without a device, so
// on a GPU the BCE loss receives a CUDA prediction and a CPU target.
#include <torch/torch.h>

#include <iostream>

struct GeneratorImpl : torch::nn::Module {
  explicit GeneratorImpl(int64_t latent) {
    net = register_module("net", torch::nn::Sequential(
        torch::nn::Linear(latent, 256), torch::nn::LeakyReLU(torch::nn::LeakyReLUOptions().negative_slope(0.2)),
        torch::nn::Linear(256, 512), torch::nn::LeakyReLU(torch::nn::LeakyReLUOptions().negative_slope(0.2)),
        torch::nn::Linear(512, 784), torch::nn::Tanh()));
  }
  torch::Tensor forward(torch::Tensor z) { return net->forward(z); }
  torch::nn::Sequential net{nullptr};
};
TORCH_MODULE(Generator);

struct DiscriminatorImpl : torch::nn::Module {
  DiscriminatorImpl() {
    fc1 = register_module("fc1", torch::nn::Linear(784, 512));
    fc2 = register_module("fc2", torch::nn::Linear(512, 256));
    fc3 = register_module("fc3", torch::nn::Linear(256, 1));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::leaky_relu(fc1(x.view({x.size(0), -1})), 0.2);
    x = torch::leaky_relu(fc2(x), 0.2);
    return torch::sigmoid(fc3(x));
  }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr}, fc3{nullptr};
};
TORCH_MODULE(Discriminator);

int main() {
  const int64_t latent = 64;
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  std::cout << "Training on " << device << std::endl;

  auto data_loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./mnist")
          .map(torch::data::transforms::Normalize<>(0.5, 0.5))
          .map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(100).workers(2));

  Generator G(latent);
  Discriminator D;
  G->to(device);
  D->to(device);

  torch::optim::Adam g_opt(G->parameters(), torch::optim::AdamOptions(2e-4).betas(std::make_tuple(0.5, 0.999)));
  torch::optim::Adam d_opt(D->parameters(), torch::optim::AdamOptions(2e-4).betas(std::make_tuple(0.5, 0.999)));
  torch::nn::BCELoss criterion;

  for (int epoch = 0; epoch < 50; ++epoch) {
    double d_running = 0.0, g_running = 0.0;
    int64_t step = 0;
    for (auto& batch : *data_loader) {
      auto real = batch.data.to(device);
      const int64_t batch_size = real.size(0);
      auto real_labels = torch::ones({batch_size, 1});
      auto fake_labels = torch::zeros({batch_size, 1}, device);

      // Discriminator: real images should score 1, generated ones 0.
      auto z = torch::randn({batch_size, latent}, device);
      auto fake = G(z);
      auto d_real = criterion(D(real), real_labels); // torchtidy-expect: libtorch-mixed-device-operands
      auto d_fake = criterion(D(fake.detach()), fake_labels);
      auto d_loss = d_real + d_fake;
      d_opt.zero_grad();
      d_loss.backward();
      d_opt.step();

      // Generator: make the discriminator call the fakes real.
      auto g_loss = criterion(D(fake), real_labels); // torchtidy-expect: libtorch-mixed-device-operands
      g_opt.zero_grad();
      g_loss.backward();
      g_opt.step();

      if (++step % 100 == 0) {
        d_running += d_loss.item<double>();
        g_running += g_loss.item<double>();
        std::cout << "epoch " << epoch << " step " << step << " D " << d_loss.item<float>()
                  << " G " << g_loss.item<float>() << std::endl;
      }
    }
    std::cout << "epoch " << epoch << " mean D " << d_running / (step / 100) << " mean G "
              << g_running / (step / 100) << std::endl;
    torch::save(G, "generator.pt");
  }

  torch::NoGradGuard no_grad;
  auto samples = G(torch::randn({16, latent}, device)).view({16, 1, 28, 28});
  torch::save(samples.cpu(), "samples.pt");
}
