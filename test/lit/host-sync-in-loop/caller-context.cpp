// A copy to the host in a helper's own loop, of a tensor its callers pass
// from the device: a sync in every iteration, known from the callers. Shaped
// like the detection post-processing and the trackers of public YOLO and
// DeepSORT ports, whose `main` passes the network's output in.
// RUN: %check_lint %s --checks='-*,libtorch-host-sync-in-loop' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

struct DetectorImpl : torch::nn::Module {
  DetectorImpl() : head(register_module("head", torch::nn::Linear(16, 8))) {}
  torch::Tensor forward(torch::Tensor x) { return head->forward(x); }
  torch::nn::Linear head;
};
TORCH_MODULE(Detector);

// The shape: each class's detections copied back inside the helper's loop.
std::vector<torch::Tensor> split_by_class(torch::Tensor prediction,
                                          int num_classes) {
  std::vector<torch::Tensor> per_class;
  for (int c = 0; c < num_classes; ++c) {
    auto dets = prediction.select(1, c).cpu();
    // CHECK: :[[@LINE-1]]:41: warning: '.cpu()' copies 'prediction.select(1, c)' (on 'device') to the host and waits for the device in every iteration; copy the whole result to the host once, before the loop, and read its parts there [libtorch-host-sync-in-loop]
    // CHECK: :[[@LINE-3]]:3: note: in this loop
    // CHECK: caller-context.cpp:[[#CALL:]]:{{[0-9]+}}: note: 'prediction' is on 'device' here: passed by 'detect'
    per_class.push_back(dets);
  }
  return per_class;
}

// One step removed: the output is permuted and indexed before each image's
// score is read.
std::vector<float> best_scores(torch::Tensor output) {
  auto scores = output.permute({1, 0});
  std::vector<float> best;
  for (int64_t i = 0; i < scores.size(1); ++i)
    best.push_back(scores.select(1, i).max().item<float>());
  // CHECK: :[[@LINE-1]]:46: warning: '.item()' copies 'scores.select(1, i).max()' (on 'device') to the host and waits for the device in every iteration; accumulate on the device {{.*}} [libtorch-host-sync-in-loop]
  // CHECK: caller-context.cpp:[[#CALL+1]]:{{[0-9]+}}: note: 'output' is on 'device' here: passed by 'detect'
  return best;
}

// Through a helper: a tracker's distance helper ends in `.cpu()`, and its
// update calls it once per track, with features the program put on the
// device.
torch::Tensor cosine_distance(torch::Tensor a, torch::Tensor b) {
  return (1 - torch::mm(a, b.t())).cpu();
}
class Tracker {
public:
  void update(torch::Tensor features) {
    for (int64_t t = 0; t < features.size(0); ++t)
      costs_.push_back(cosine_distance(features, features[t].unsqueeze(0)));
    // CHECK: :[[@LINE-1]]:24: warning: '.cpu()' copies '1 - torch::mm(a, b.t())' (on 'device') to the host inside 'cosine_distance' and waits for the device in every iteration; copy once, outside the loop, or keep each iteration's work on the device [libtorch-host-sync-in-loop]
    // CHECK: :[[@LINE-3]]:5: note: in this loop
    // CHECK: caller-context.cpp:[[#CALL+2]]:{{[0-9]+}}: note: 'features' is on 'device' here: passed by 'detect'
  }
  std::vector<torch::Tensor> costs_;
};

// Negatives: the same helpers with host tensors from every caller, and from
// a caller whose tensors nobody knows (a function another file may call).
std::vector<torch::Tensor> split_host(torch::Tensor prediction, int n) {
  std::vector<torch::Tensor> per_class;
  for (int c = 0; c < n; ++c)
    per_class.push_back(prediction.select(1, c).cpu());
  return per_class;
}
std::vector<torch::Tensor> split_unknown(torch::Tensor prediction, int n) {
  std::vector<torch::Tensor> per_class;
  for (int c = 0; c < n; ++c)
    per_class.push_back(prediction.select(1, c).cpu());
  return per_class;
}
void from_elsewhere(torch::Tensor output) { split_unknown(output, 4); }

void detect(Detector detector, const std::vector<torch::Tensor> &frames) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  detector->to(device);
  Tracker tracker;
  for (const auto &frame : frames) {
    auto output = detector->forward(frame.to(device));
    auto classes = split_by_class(output, 8);
    auto best = best_scores(output);
    tracker.update(output);
    auto on_host = split_host(output.cpu(), 8);
  }
}
