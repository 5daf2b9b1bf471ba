// A training loop with no device-placement bug, written the way the official
// LibTorch examples are, with the device taken from the command line
// (cpu or cuda). The runtime checks use it as the program the shim must not
// change (same output and exit status with and without it) and
// bench/runtime_overhead.py times it.
//   ./train_correct cpu
#include <torch/torch.h>

#include <cstdio>
#include <vector>

constexpr int64_t kFeatures = 32;
constexpr int64_t kHidden = 64;
constexpr int64_t kClasses = 4;

// Examples labelled by a fixed linear "teacher", made on the host like the
// examples of any dataset read from disk.
class SyntheticClassification
    : public torch::data::datasets::Dataset<SyntheticClassification> {
public:
  explicit SyntheticClassification(int64_t size)
      : inputs_(torch::randn({size, kFeatures})),
        labels_(
            inputs_.mm(torch::randn({kFeatures, kClasses})).argmax(/*dim=*/1)) {
  }

  torch::data::Example<> get(size_t index) override {
    return {inputs_[index], labels_[index]};
  }

  torch::optional<size_t> size() const override { return inputs_.size(0); }

private:
  torch::Tensor inputs_, labels_;
};

int main(int argc, char **argv) {
  torch::manual_seed(0);
  torch::Device device(argc > 1 ? argv[1] : "cpu");

  // A two-layer perceptron whose weights are plain tensors made on the
  // device.
  auto on_device = torch::TensorOptions().device(device);
  auto w1 =
      (0.2 * torch::randn({kFeatures, kHidden}, on_device)).requires_grad_();
  auto b1 = torch::zeros({kHidden}, on_device).requires_grad_();
  auto w2 =
      (0.2 * torch::randn({kHidden, kClasses}, on_device)).requires_grad_();
  auto b2 = torch::zeros({kClasses}, on_device).requires_grad_();

  // Worker threads assemble the batches, as in most real programs.
  auto loader = torch::data::make_data_loader(
      SyntheticClassification(1600).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(32).workers(2));
  torch::optim::SGD optimizer(std::vector<torch::Tensor>{w1, b1, w2, b2},
                              torch::optim::SGDOptions(/*lr=*/0.1));

  for (int epoch = 1; epoch <= 4; ++epoch) {
    double running_loss = 0;
    int batches = 0;
    for (auto &batch : *loader) {
      auto data = batch.data.to(device);
      auto target = batch.target.to(device);
      optimizer.zero_grad();
      auto logits = torch::relu(data.mm(w1) + b1).mm(w2) + b2;
      auto loss = torch::nn::functional::cross_entropy(logits, target);
      loss.backward();
      optimizer.step();
      running_loss += loss.item<double>();
      ++batches;
    }
    std::printf("epoch %d: mean loss %.4f over %d batches\n", epoch,
                running_loss / batches, batches);
  }
}
