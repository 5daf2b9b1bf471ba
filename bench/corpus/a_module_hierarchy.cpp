// A small ResNet-style network: residual blocks declared with TORCH_MODULE,
// nested register_module calls, blocks kept in a torch::nn::ModuleList.
#include <torch/torch.h>

#include <iostream>
#include <string>
#include <vector>

struct BasicBlockImpl : torch::nn::Module {
  BasicBlockImpl(int64_t in_planes, int64_t planes, int64_t stride) {
    conv1 = register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(in_planes, planes, 3)
                                                           .stride(stride)
                                                           .padding(1)
                                                           .bias(false)));
    bn1 = register_module("bn1", torch::nn::BatchNorm2d(planes));
    conv2 = register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(planes, planes, 3)
                                                           .padding(1)
                                                           .bias(false)));
    bn2 = register_module("bn2", torch::nn::BatchNorm2d(planes));
    // Learnable residual scale (initialised at zero, "ReZero" style).
    res_scale = register_parameter("res_scale", torch::zeros({1}));

    if (stride != 1 || in_planes != planes) {
      shortcut = register_module(
          "shortcut",
          torch::nn::Sequential(
              torch::nn::Conv2d(torch::nn::Conv2dOptions(in_planes, planes, 1)
                                    .stride(stride)
                                    .bias(false)),
              torch::nn::BatchNorm2d(planes)));
    }
  }

  torch::Tensor forward(torch::Tensor x) {
    auto out = torch::relu(bn1(conv1(x)));
    out = bn2(conv2(out));
    auto identity = shortcut ? shortcut->forward(x) : x;
    return torch::relu(identity + res_scale * out);
  }

  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
  torch::nn::BatchNorm2d bn1{nullptr}, bn2{nullptr};
  torch::nn::Sequential shortcut{nullptr};
  torch::Tensor res_scale;
};
TORCH_MODULE(BasicBlock);

struct TinyResNetImpl : torch::nn::Module {
  TinyResNetImpl(int64_t num_classes, std::vector<int64_t> widths) {
    stem = register_module(
        "stem",
        torch::nn::Sequential(
            torch::nn::Conv2d(torch::nn::Conv2dOptions(3, widths[0], 3).padding(1).bias(false)),
            torch::nn::BatchNorm2d(widths[0]),
            torch::nn::ReLU()));

    blocks = register_module("blocks", torch::nn::ModuleList());
    int64_t in_planes = widths[0];
    for (size_t i = 0; i < widths.size(); ++i) {
      const int64_t stride = i == 0 ? 1 : 2;
      blocks->push_back(BasicBlock(in_planes, widths[i], stride));
      blocks->push_back(BasicBlock(widths[i], widths[i], 1));
      in_planes = widths[i];
    }
    fc = register_module("fc", torch::nn::Linear(in_planes, num_classes));
  }

  torch::Tensor forward(torch::Tensor x) {
    x = stem->forward(x);
    for (const auto& module : *blocks) {
      x = module->as<BasicBlock>()->forward(x);
    }
    x = torch::adaptive_avg_pool2d(x, {1, 1}).flatten(1);
    return fc(x);
  }

  torch::nn::Sequential stem{nullptr};
  torch::nn::ModuleList blocks{nullptr};
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(TinyResNet);

int main() {
  torch::manual_seed(123);
  torch::Device device = torch::kCPU;
  if (torch::cuda::is_available()) {
    device = torch::kCUDA;
  }

  TinyResNet net(/*num_classes=*/10, /*widths=*/std::vector<int64_t>{16, 32, 64});
  net->to(device);

  size_t n_params = 0;
  for (const auto& p : net->parameters()) {
    n_params += p.numel();
  }
  std::cout << "parameters: " << n_params << std::endl;
  for (const auto& item : net->named_modules("", /*include_self=*/false)) {
    if (item.key().find("shortcut") != std::string::npos) {
      std::cout << "  projection shortcut at " << item.key() << std::endl;
    }
  }

  torch::optim::SGD optimizer(net->parameters(),
                              torch::optim::SGDOptions(0.1).momentum(0.9).weight_decay(5e-4));

  // Synthetic batches of 32x32 RGB images.
  auto images = torch::randn({512, 3, 32, 32});
  auto labels = torch::randint(0, 10, {512}, torch::kLong);

  const int64_t batch_size = 64;
  for (int epoch = 0; epoch < 3; ++epoch) {
    net->train();
    float total = 0.f;
    int steps = 0;
    for (int64_t start = 0; start < images.size(0); start += batch_size) {
      auto x = images.narrow(0, start, batch_size).to(device);
      auto y = labels.narrow(0, start, batch_size).to(device);

      optimizer.zero_grad();
      auto loss = torch::nn::functional::cross_entropy(net(x), y);
      loss.backward();
      optimizer.step();

      if (steps++ % 4 == 0) {
        std::cout << "epoch " << epoch << " step " << steps << " loss "
                  << loss.item<float>() << std::endl;
      }
      total += loss.detach().item<float>(); // torchtidy-expect: libtorch-host-sync-in-loop
    }
    std::cout << "epoch " << epoch << " average loss " << total / steps << std::endl;
  }
  return 0;
}
