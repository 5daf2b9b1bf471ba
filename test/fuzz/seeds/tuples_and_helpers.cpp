std::pair<torch::Tensor, torch::Tensor> load(torch::Device device) {
  auto x = torch::randn({8, 4});
  auto y = torch::randn({8, 2}).pin_memory();
  return {x.to(device), y.to(device, true)};
}

template <typename Model>
float step(Model &model, torch::Device device) {
  auto [x, y] = load(device);
  torch::Tensor a, b;
  std::tie(a, b) = std::make_tuple(x, y.cpu());
  auto out = model->forward(a);
  if (device.is_cuda()) {
    b = b.to(device);
  }
  return torch::mse_loss(out, b).item<float>();
}

void run() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto model = torch::nn::Linear(4, 2);
  float total = 0;
  for (int i = 0; i < 3; ++i)
    total += step(model, device);
  auto lambda = [&](torch::Tensor t) { return model(t.cuda()); };
  lambda(torch::ones({1, 4}));
}
