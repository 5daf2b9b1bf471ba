// Training with a validation split, a hand-written step LR schedule applied
// to the optimizer's param groups, early stopping on the validation loss and
// checkpointing the best model with torch::save.
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <limits>
#include <string>

struct WineNet : torch::nn::Module {
  WineNet(int64_t in_features, int64_t num_classes) {
    fc1 = register_module("fc1", torch::nn::Linear(in_features, 64));
    bn1 = register_module("bn1", torch::nn::BatchNorm1d(64));
    fc2 = register_module("fc2", torch::nn::Linear(64, 32));
    fc3 = register_module("fc3", torch::nn::Linear(32, num_classes));
  }

  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(bn1->forward(fc1->forward(x)));
    x = torch::dropout(x, 0.2, is_training());
    x = torch::relu(fc2->forward(x));
    return fc3->forward(x);
  }

  torch::nn::Linear fc1{nullptr}, fc2{nullptr}, fc3{nullptr};
  torch::nn::BatchNorm1d bn1{nullptr};
};

int main(int argc, char** argv) {
  const std::string checkpoint_path = argc > 1 ? argv[1] : "best_model.pt";
  torch::manual_seed(7);

  torch::Device device = torch::kCPU;
  if (torch::cuda::is_available()) {
    device = torch::Device(torch::kCUDA, 0);
  }

  // Synthetic 13-feature, 3-class data; 80/20 train/validation split.
  const int64_t n = 3000, features = 13, classes = 3;
  auto centers = torch::randn({classes, features}) * 2.0;
  auto all_y = torch::randint(0, classes, {n}, torch::kLong);
  auto all_x = centers.index_select(0, all_y) + torch::randn({n, features});
  const int64_t n_train = n * 8 / 10;

  auto train_x = all_x.narrow(0, 0, n_train);
  auto train_y = all_y.narrow(0, 0, n_train);
  auto val_x = all_x.narrow(0, n_train, n - n_train).to(device);
  auto val_y = all_y.narrow(0, n_train, n - n_train).to(device);

  auto model = std::make_shared<WineNet>(features, classes);
  model->to(device);

  const double base_lr = 0.1;
  torch::optim::SGD optimizer(model->parameters(),
                              torch::optim::SGDOptions(base_lr).momentum(0.9).nesterov(true));

  const int max_epochs = 100, patience = 8, step_size = 15;
  const double gamma = 0.5;
  const int64_t batch_size = 64;
  double best_val = std::numeric_limits<double>::infinity();
  int epochs_without_improvement = 0;

  for (int epoch = 1; epoch <= max_epochs; ++epoch) {
    // StepLR by hand: lr = base_lr * gamma^(floor((epoch-1)/step_size)).
    const double lr = base_lr * std::pow(gamma, (epoch - 1) / step_size);
    for (auto& group : optimizer.param_groups()) {
      static_cast<torch::optim::SGDOptions&>(group.options()).lr(lr);
    }

    model->train();
    auto perm = torch::randperm(n_train, torch::kLong);
    double train_loss = 0.0;
    int64_t steps = 0;
    for (int64_t start = 0; start + batch_size <= n_train; start += batch_size) {
      auto idx = perm.narrow(0, start, batch_size);
      auto x = train_x.index_select(0, idx).to(device);
      auto y = train_y.index_select(0, idx).to(device);

      optimizer.zero_grad();
      auto loss = torch::cross_entropy_loss(model->forward(x), y);
      loss.backward();
      optimizer.step();
      train_loss += loss.item<double>(); // torchtidy-expect: libtorch-host-sync-in-loop
      ++steps;
    }

    double val_loss;
    {
      torch::NoGradGuard no_grad;
      model->eval();
      val_loss = torch::cross_entropy_loss(model->forward(val_x), val_y).item<double>();
    }

    std::cout << "epoch " << epoch << " lr " << lr << " train " << train_loss / steps
              << " val " << val_loss << std::endl;

    if (val_loss < best_val - 1e-4) {
      best_val = val_loss;
      epochs_without_improvement = 0;
      torch::save(model, checkpoint_path);
    } else if (++epochs_without_improvement >= patience) {
      std::cout << "early stopping at epoch " << epoch << " (best val " << best_val << ")"
                << std::endl;
      break;
    }
  }

  // Restore the best weights for the final report.
  torch::load(model, checkpoint_path);
  model->to(device);
  model->eval();
  torch::NoGradGuard no_grad;
  auto acc = model->forward(val_x).argmax(1).eq(val_y).to(torch::kFloat).mean();
  std::cout << "best checkpoint val accuracy " << acc.item<float>() << std::endl;
  return 0;
}
