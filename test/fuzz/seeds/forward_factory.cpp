struct Block : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto mask = torch::ones({x.size(0), 4});
    auto noise = torch::randn(x.sizes(), x.options());
    return x * mask + noise;
  }
};
TORCH_MODULE(Block);

double evaluate(Block &block, const at::Tensor &x, torch::Device device) {
  torch::NoGradGuard no_grad;
  auto y = block(x.to(device, /*non_blocking=*/true));
  return y.sum().item<double>();
}
