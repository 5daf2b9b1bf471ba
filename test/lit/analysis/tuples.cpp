// Tensors travel in std::pair and std::tuple: a model's forward() returns
// several, helpers return (inputs, labels). The analysis follows each
// element through std::tie, structured bindings, std::get, .first/.second,
// std::make_pair and braced returns, and through helper summaries.
// RUN: %check_lint %s --checks='%bug_checks' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

struct VaeImpl : torch::nn::Module {
  VaeImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  std::tuple<torch::Tensor, torch::Tensor, torch::Tensor>
  forward(torch::Tensor x) {
    auto h = fc->forward(x);
    return {h, h.mean(), h.std()};
  }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Vae);

torch::Tensor vaeLoss(const torch::Tensor &recon, const torch::Tensor &x,
                      const torch::Tensor &mu, const torch::Tensor &logvar) {
  return torch::mse_loss(recon, x) + (mu * mu + logvar.exp()).sum();
}

// Every element of a module's output carries autograd history.
void unpackedOutputs(Vae &model, const std::vector<torch::Tensor> &inputs) {
  torch::Tensor total = torch::scalar_tensor(0.0);
  torch::Tensor kept = torch::scalar_tensor(0.0);
  for (const auto &x : inputs) {
    torch::Tensor recon, mu, logvar;
    std::tie(recon, mu, logvar) = model->forward(x);
    auto loss = vaeLoss(recon, x, mu, logvar);
    loss.backward();
    total = total + loss;
    // CHECK: :[[@LINE-1]]:11: warning: 'total' keeps 'loss', {{.*}} [libtorch-graph-retaining-accumulation]
    auto [out, mean, spread] = model->forward(x);
    kept += mean;
    // CHECK: :[[@LINE-1]]:10: warning: 'kept' keeps 'mean', {{.*}} [libtorch-graph-retaining-accumulation]
  }
  std::cout << total.item<double>() + kept.item<double>() << std::endl;
}

// A helper that returns the whole dataset, on the host, as a pair.
std::pair<torch::Tensor, torch::Tensor> makeBlobs(int64_t n) {
  auto x = torch::randn({n, 4});
  auto y = torch::randint(0, 4, {n});
  return {x, y};
}

void labelsFromPair(torch::Device device) {
  torch::nn::Linear model(4, 4);
  model->to(device);
  auto data = makeBlobs(256);
  auto inputs = data.first;
  auto labels = data.second;
  for (int64_t start = 0; start < 256; start += 64) {
    auto x = inputs.slice(0, start, start + 64).to(device);
    auto y = labels.slice(0, start, start + 64);
    auto loss = torch::nn::functional::cross_entropy(model(x), y);
    // CHECK: :[[@LINE-1]]:64: warning: 'y' is on the CPU (returned by 'makeBlobs(256)') but 'model(x)' is on 'device'; move it with 'y.to(device)' as well [libtorch-missing-target-migration]
    loss.backward();
  }
}

// Elements keep their own devices: no finding where each is used with its
// own kind, one where the host element meets the device.
void elementsApart(torch::Device device) {
  auto pair = std::make_pair(torch::randn({4}), torch::randn({4}).to(device));
  auto onDevice = std::get<1>(pair) * torch::ones({4}, device);
  auto onHost = pair.first * torch::ones({4});
  auto [host, moved] = pair;
  auto fine = moved + torch::zeros({4}, device);
  auto mixed = host + pair.second;
  // CHECK: :[[@LINE-1]]:21: warning: 'host' is on the CPU {{.*}} [libtorch-mixed-device-operands]
  // Members that are not elements.
  auto copy = pair;
  copy.swap(pair);
  copy.operator=(pair);
}

// Detached elements and elements of a tuple that never had history.
void noHistory(Vae &model, const std::vector<torch::Tensor> &inputs) {
  torch::Tensor total = torch::zeros({});
  for (const auto &x : inputs) {
    auto [out, mean, spread] = model->forward(x);
    total += mean.detach();
    auto stats = std::make_tuple(x.mean(), x.std());
    total += std::get<0>(stats);
  }
  std::cout << total << std::endl;
}
