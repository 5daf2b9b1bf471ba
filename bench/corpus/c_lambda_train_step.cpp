// Training loop factored into lambdas: train_step / eval_step capture the model,
// the optimizer and the device by reference and are called once per batch.
#include <torch/torch.h>

#include <iostream>
#include <vector>

struct SpiralNetImpl : torch::nn::Module {
  explicit SpiralNetImpl(int64_t hidden) {
    fc1 = register_module("fc1", torch::nn::Linear(2, hidden));
    fc2 = register_module("fc2", torch::nn::Linear(hidden, hidden));
    out = register_module("out", torch::nn::Linear(hidden, 3));
  }
  at::Tensor forward(at::Tensor x) {
    x = torch::gelu(fc1(x));
    x = torch::gelu(fc2(x));
    return out(x);
  }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr}, out{nullptr};
};
TORCH_MODULE(SpiralNet);

// Three interleaved spirals (the classic cs231n toy problem).
class Spirals : public torch::data::datasets::Dataset<Spirals> {
 public:
  explicit Spirals(int64_t per_class) {
    std::vector<at::Tensor> xs, ys;
    for (int64_t c = 0; c < 3; ++c) {
      auto r = torch::linspace(0.0, 1.0, per_class);
      auto t = torch::linspace(c * 4.0, (c + 1) * 4.0, per_class) + 0.2 * torch::randn({per_class});
      xs.push_back(torch::stack({r * torch::sin(t), r * torch::cos(t)}, 1));
      ys.push_back(torch::full({per_class}, c, torch::kLong));
    }
    x_ = torch::cat(xs);
    y_ = torch::cat(ys);
  }
  torch::data::Example<> get(size_t i) override { return {x_[i], y_[i]}; }
  torch::optional<size_t> size() const override { return x_.size(0); }

 private:
  at::Tensor x_, y_;
};

int main() {
  torch::manual_seed(1);
  torch::Device device = torch::cuda::is_available() ? torch::Device("cuda") : torch::Device("cpu");

  SpiralNet model(128);
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(3e-3));

  auto train_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      Spirals(1000).map(torch::data::transforms::Stack<>()), 100);
  auto val_loader = torch::data::make_data_loader(
      Spirals(200).map(torch::data::transforms::Stack<>()), 100);

  auto train_step = [&model, &optimizer, &device](const torch::data::Example<>& batch) {
    auto data = batch.data.to(device);
    auto target = batch.target.to(device);
    optimizer.zero_grad();
    auto logits = model(data);
    auto loss = torch::nn::functional::cross_entropy(logits, target);
    loss.backward();
    optimizer.step();
    return loss.detach();
  };

  auto eval_step = [&model, &device](const torch::data::Example<>& batch) {
    auto data = batch.data.to(device);
    auto target = batch.target.to(device);
    auto logits = model(data);
    return logits.argmax(1).eq(target).sum();
  };

  for (int epoch = 1; epoch <= 50; ++epoch) {
    model->train();
    at::Tensor last_loss;
    for (auto& batch : *train_loader) {
      last_loss = train_step(batch);
    }

    if (epoch % 10 == 0) {
      c10::InferenceMode guard;
      model->eval();
      auto correct = torch::zeros({}, torch::TensorOptions().dtype(torch::kLong).device(device));
      for (auto& batch : *val_loader) {
        correct += eval_step(batch);
      }
      std::cout << "epoch " << epoch << "  train loss " << last_loss.item<float>()
                << "  val acc " << correct.item<int64_t>() / 600.0 << std::endl;
    }
  }
  return 0;
}
