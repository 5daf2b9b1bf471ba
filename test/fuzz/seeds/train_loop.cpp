struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};

void train(std::vector<torch::data::Example<>> &loader, torch::Device device) {
  auto model = std::make_shared<Net>();
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  torch::Tensor running = torch::zeros({});
  for (auto &batch : loader) {
    auto data = batch.data.to(device);
    auto target = batch.target;
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(data), target);
    loss.backward();
    optimizer.step();
    running += loss;
  }
}
