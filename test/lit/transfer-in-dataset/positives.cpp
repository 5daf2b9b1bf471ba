// RUN: %check_lint %s --checks='-*,libtorch-transfer-in-dataset' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

class ImageFolder : public torch::data::datasets::Dataset<ImageFolder> {
public:
  explicit ImageFolder(torch::Device device) : device_(device) {}
  torch::data::Example<> get(size_t index) override {
    torch::Tensor image = torch::rand({3, 32, 32});
    torch::Tensor label = torch::tensor(static_cast<int64_t>(index % 10));
    return {image.to(device_), label.cuda()};
    // CHECK: :[[@LINE-1]]:19: warning: '.to()' moves data to a device inside 'ImageFolder::get', once per example; keep loading on the host and move each batch in the training loop [libtorch-transfer-in-dataset]
    // CHECK: positives.cpp:8:26: note: 'ImageFolder::get' produces the examples the data loader batches
    // CHECK: :[[@LINE-3]]:38: warning: '.cuda()' moves data to the device inside 'ImageFolder::get'
  }
  torch::optional<size_t> size() const override { return 100; }

private:
  torch::Device device_;
};

struct ToGpu : torch::data::transforms::TensorTransform<torch::Tensor> {
  torch::Tensor operator()(torch::Tensor input) override {
    return input.to(torch::kCUDA);
    // CHECK: :[[@LINE-1]]:18: warning: '.to()' moves data to the device inside 'ToGpu::operator()'
  }
};

struct Normalize
    : torch::data::transforms::Transform<torch::data::Example<>,
                                         torch::data::Example<>> {
  torch::data::Example<> apply(torch::data::Example<> example) override {
    return {example.data.to(torch::Device("cuda:0")), example.target};
    // CHECK: :[[@LINE-1]]:26: warning: '.to()' moves data to the device inside 'Normalize::apply'
  }
};

// Helpers that move, in this file: the call is reported, with a note at the
// transfer, however many helpers deep; one transfer reached by two calls is
// one finding.
static torch::Tensor toDevice(torch::Tensor t, torch::Device device) {
  return t.to(device, /*non_blocking=*/false);
}
static torch::Tensor decode(int64_t index, torch::Device device) {
  return toDevice(torch::rand({3, 8, 8}) * index, device);
}
static torch::Tensor onGpu(torch::Tensor t) { return t.cuda(); }

class Frames : public torch::data::datasets::Dataset<Frames> {
public:
  torch::data::Example<> get(size_t index) override {
    torch::Device device(torch::kCUDA);
    auto frame = decode(index, device);
    // CHECK: :[[@LINE-1]]:18: warning: 'decode' moves data to 'device' inside 'Frames::get', once per example; keep loading on the host and move each batch in the training loop [libtorch-transfer-in-dataset]
    // CHECK: positives.cpp:[[@LINE-13]]:12: note: '.to()' moves it here, each time 'decode' runs
    auto next = decode(index + 1, device);
    // CHECK: :[[@LINE-1]]:17: note: 'decode' moves data here too
    // CHECK: :[[@LINE-7]]:26: note: 'Frames::get' produces the examples the data loader batches
    return {frame - next, onGpu(torch::tensor(0))};
    // CHECK: :[[@LINE-1]]:27: warning: 'onGpu' moves data to 'cuda' inside 'Frames::get'
    // CHECK: positives.cpp:[[@LINE-14]]:56: note: '.cuda()' moves it here, each time 'onGpu' runs
  }
  torch::optional<size_t> size() const override { return 10; }
};

// Sent where a member of the transform is: not where the example is.
struct ToReference : torch::data::transforms::TensorTransform<torch::Tensor> {
  torch::Tensor operator()(torch::Tensor input) override {
    return input.to(reference.device());
    // CHECK: :[[@LINE-1]]:18: warning: '.to()' moves data to a device inside 'ToReference::operator()'
  }
  torch::Tensor reference;
};
