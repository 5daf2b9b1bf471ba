// Evaluates a classifier on held-out examples, written the way the official
// LibTorch examples are, with the device taken from the command line and one
// device-placement bug: class weights made on the host meet logits on the
// device.
//   ./evaluate meta   dies at the weighting, as it would on a GPU (meta
//                     stands in for one)
//   ./evaluate cpu    prints the accuracy
#include <torch/torch.h>

#include <cstdio>

constexpr int64_t kFeatures = 4;
constexpr int64_t kClasses = 3;

// Examples labelled by a fixed linear "teacher", made on the host like the
// examples of any dataset read from disk.
class SyntheticClassification
    : public torch::data::datasets::Dataset<SyntheticClassification> {
public:
  SyntheticClassification(int64_t size, const torch::Tensor &teacher)
      : inputs_(torch::randn({size, kFeatures})),
        labels_(inputs_.mm(teacher).argmax(/*dim=*/1)) {}

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

  // The classifier's weights as a checkpoint would give them: close to the
  // teacher that labelled the data.
  torch::Tensor teacher = torch::randn({kFeatures, kClasses});
  torch::Tensor weight =
      (teacher + 0.2 * torch::randn({kFeatures, kClasses})).to(device);
  torch::Tensor bias = torch::zeros({kClasses}, device);

  auto loader = torch::data::make_data_loader(
      SyntheticClassification(512, teacher)
          .map(torch::data::transforms::Stack<>()),
      /*batch_size=*/64);

  // Bug: made without a device, the class weights stay on the CPU.
  torch::Tensor class_weights = torch::ones({kClasses});

  torch::NoGradGuard no_grad;
  torch::Tensor correct =
      torch::zeros({}, torch::dtype(torch::kLong).device(device));
  int64_t seen = 0;
  for (auto &batch : *loader) {
    auto data = batch.data.to(device);
    auto labels = batch.target.to(device);
    auto logits = data.mm(weight) + bias;
    auto weighted = logits * class_weights;
    correct += weighted.argmax(/*dim=*/1).eq(labels).sum();
    seen += labels.size(0);
  }
  std::printf("accuracy %.4f on %lld examples\n", correct.item<double>() / seen,
              static_cast<long long>(seen));
}
