// A small regression training program, written the way the official LibTorch
// examples are, with the device taken from the command line, and with four
// labelled device-placement bugs that the runtime checker catches as they
// happen (docs/runtime.md):
//   ./train_regression meta   dies of bug (a) in the first iteration, as it
//                             would on a GPU (meta stands in for one)
//   ./train_regression cpu    trains 40 iterations, exercising (c) and (d)
#include <torch/torch.h>

#include <cstdio>
#include <vector>

constexpr int64_t kFeatures = 8;
constexpr int64_t kHidden = 16;

// Noisy samples of a fixed linear function, made on the host like the
// examples of any dataset read from disk.
class SyntheticRegression
    : public torch::data::datasets::Dataset<SyntheticRegression> {
public:
  explicit SyntheticRegression(int64_t size)
      : inputs_(torch::randn({size, kFeatures})) {
    torch::Tensor true_weight = torch::linspace(-1, 1, kFeatures).view({-1, 1});
    targets_ = inputs_.mm(true_weight) + 0.5 + 0.1 * torch::randn({size, 1});
  }

  torch::data::Example<> get(size_t index) override {
    return {inputs_[index], targets_[index]};
  }

  torch::optional<size_t> size() const override { return inputs_.size(0); }

private:
  torch::Tensor inputs_, targets_;
};

int main(int argc, char **argv) {
  torch::manual_seed(0);
  torch::Device device(argc > 1 ? argv[1] : "cpu");

  // A two-layer perceptron whose weights are plain tensors made on the
  // device: a torch::nn module cannot move to meta in LibTorch 1.13, nor has
  // relu a meta kernel there (tanh has).
  auto on_device = torch::TensorOptions().device(device);
  auto w1 =
      (0.3 * torch::randn({kFeatures, kHidden}, on_device)).requires_grad_();
  auto b1 = torch::zeros({kHidden}, on_device).requires_grad_();
  auto w2 = (0.3 * torch::randn({kHidden, 1}, on_device)).requires_grad_();
  auto b2 = torch::zeros({1}, on_device).requires_grad_();

  auto loader = torch::data::make_data_loader(
      SyntheticRegression(640).map(torch::data::transforms::Stack<>()),
      /*batch_size=*/32);
  torch::optim::SGD optimizer(std::vector<torch::Tensor>{w1, b1, w2, b2},
                              /*lr=*/0.05);

  torch::Tensor running_loss = torch::zeros({}, on_device);
  int iteration = 0;
  for (int epoch = 1; epoch <= 2; ++epoch) {
    for (auto &batch : *loader) {
      // Bug (b): the batch is in pageable memory, not pinned: the copy is
      // synchronous and non_blocking does nothing.
      auto data = batch.data.to(device, /*non_blocking=*/true);
      optimizer.zero_grad();
      auto prediction = torch::tanh(data.mm(w1) + b1).mm(w2) + b2;
      // Bug (a): the targets never left the CPU.
      auto loss = torch::mse_loss(prediction, batch.target);
      loss.backward();
      optimizer.step();
      // Bug (c): the loss tensor keeps every iteration's graph alive.
      running_loss += loss;
      // Bug (d): the host waits for the device in every iteration.
      std::printf("iteration %d: loss %.4f\n", ++iteration, loss.item<float>());
    }
  }
  std::printf("mean loss %.4f over %d iterations\n",
              running_loss.item<double>() / iteration, iteration);
}
