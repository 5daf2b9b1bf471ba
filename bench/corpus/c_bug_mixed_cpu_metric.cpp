// Polynomial regression (after pytorch/examples cpp/regression) with a golden-output
// regression test: predictions are compared against reference values stored on disk.
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

constexpr int64_t kDegree = 4;

// Builds [x, x^2, x^3, x^4] for a column vector x.
torch::Tensor make_features(const torch::Tensor& x) {
  std::vector<torch::Tensor> cols;
  for (int64_t i = 1; i <= kDegree; ++i) {
    cols.push_back(x.pow(i));
  }
  return torch::cat(cols, 1);
}

torch::Tensor target_fn(const torch::Tensor& x) {
  return 0.5 * x.pow(3) - x + 0.3;
}

void fit(torch::nn::Linear& model, torch::Device device, int64_t steps) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.05));
  for (int64_t step = 1; step <= steps; ++step) {
    auto x = torch::rand({64, 1}, torch::TensorOptions().device(device)) * 4.0 - 2.0;
    auto y = target_fn(x);
    optimizer.zero_grad();
    auto loss = torch::smooth_l1_loss(model(make_features(x)), y);
    loss.backward();
    optimizer.step();
    if (step % 500 == 0) {
      std::printf("step %5ld  loss %.6f\n", static_cast<long>(step), loss.item<float>());
    }
  }
}

// Root-mean-square deviation of the model from the golden outputs, over a fixed grid.
double evaluate_against_golden(torch::nn::Linear& model, const std::string& golden_path,
                               torch::Device device, int64_t chunk) {
  torch::Tensor expected;
  torch::load(expected, golden_path);
  const int64_t n = expected.size(0);

  torch::NoGradGuard no_grad;
  auto grid = torch::linspace(-2.0, 2.0, n, torch::TensorOptions().device(device)).unsqueeze(1);
  auto sq_err = torch::zeros({}, grid.options());
  for (int64_t start = 0; start < n; start += chunk) {
    const int64_t end = std::min(start + chunk, n);
    auto output = model(make_features(grid.slice(0, start, end)));
    auto expected_cpu = expected.slice(0, start, end);
    auto diff = output - expected_cpu;  // torchtidy-expect: libtorch-mixed-device-operands
    sq_err += diff.pow(2).sum();
  }
  return std::sqrt(sq_err.item<double>() / static_cast<double>(n));
}

int main(int argc, char** argv) {
  const std::string golden_path = argc > 1 ? argv[1] : "golden_outputs.pt";
  torch::manual_seed(0);
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  torch::nn::Linear model(kDegree, 1);
  model->to(device);
  fit(model, device, 5000);

  std::ifstream probe(golden_path);
  if (!probe.good()) {
    // First run: record the reference outputs on the host.
    torch::NoGradGuard no_grad;
    auto grid = torch::linspace(-2.0, 2.0, 1000, torch::TensorOptions().device(device)).unsqueeze(1);
    torch::save(model(make_features(grid)).cpu(), golden_path);
    std::cout << "wrote golden outputs to " << golden_path << std::endl;
    return 0;
  }

  const double rmsd = evaluate_against_golden(model, golden_path, device, /*chunk=*/250);
  std::printf("RMSD vs golden outputs: %.3e -> %s\n", rmsd, rmsd < 1e-2 ? "PASS" : "FAIL");
  return rmsd < 1e-2 ? 0 : 1;
}
