// DCGAN with the networks built inside holder classes that hand their
// Sequential out (as a public DCGAN port writes it): the program trains,
// moves and saves the Sequential it takes out, never the holder.
#include <torch/torch.h>

#include <iostream>

class Generator : public torch::nn::Module {
  torch::nn::Sequential main;

public:
  explicit Generator(int64_t nz) {
    main = torch::nn::Sequential(
        torch::nn::ConvTranspose2d(
            torch::nn::ConvTranspose2dOptions(nz, 64, 4).bias(false)),
        torch::nn::BatchNorm2d(64), torch::nn::Functional(torch::relu),
        torch::nn::ConvTranspose2d(
            torch::nn::ConvTranspose2dOptions(64, 1, 4).stride(2).padding(1)),
        torch::nn::Functional(torch::tanh));
  }
  torch::nn::Sequential get_module() { return main; }
};

class Discriminator : public torch::nn::Module {
  torch::nn::Sequential main;

public:
  Discriminator() {
    main = torch::nn::Sequential(
        torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 64, 4).stride(2)),
        torch::nn::Functional(torch::leaky_relu, 0.2),
        torch::nn::Conv2d(torch::nn::Conv2dOptions(64, 1, 3)),
        torch::nn::Functional(torch::sigmoid));
  }
  torch::nn::Sequential get_module() { return main; }
};

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  const int64_t nz = 16, batch_size = 8;
  Generator g(nz);
  Discriminator d;
  torch::nn::Sequential netG = g.get_module();
  torch::nn::Sequential netD = d.get_module();
  netG->to(device);
  netD->to(device);
  torch::optim::Adam optG(netG->parameters(), torch::optim::AdamOptions(2e-4));
  torch::optim::Adam optD(netD->parameters(), torch::optim::AdamOptions(2e-4));
  auto dataset = torch::data::datasets::TensorDataset(
      torch::randn({64, 1, 10, 10}));
  auto loader = torch::data::make_data_loader(
      std::move(dataset), torch::data::DataLoaderOptions(batch_size));
  for (int epoch = 0; epoch < 2; ++epoch) {
    double d_total = 0;
    for (auto &batch : *loader) {
      std::vector<torch::Tensor> images;
      for (auto &example : batch)
        images.push_back(example.data);
      auto real = torch::stack(images).to(device);
      auto real_out = netD->forward(real).view(-1);
      auto real_labels = torch::ones_like(real_out);
      auto noise = torch::randn({real.size(0), nz, 1, 1}, device);
      auto fake = netG->forward(noise);
      auto fake_out = netD->forward(fake.detach()).view(-1);
      auto d_loss =
          torch::binary_cross_entropy(real_out, real_labels) +
          torch::binary_cross_entropy(fake_out, torch::zeros_like(fake_out));
      optD.zero_grad();
      d_loss.backward();
      optD.step();
      auto g_out = netD->forward(fake).view(-1);
      auto g_loss = torch::binary_cross_entropy(g_out, torch::ones_like(g_out));
      optG.zero_grad();
      g_loss.backward();
      optG.step();
      d_total += d_loss.item<double>(); // torchtidy-expect: libtorch-host-sync-in-loop
    }
    std::cout << "epoch " << epoch << " D loss " << d_total << "\n";
  }
  torch::save(netG, "generator.pt");
}
