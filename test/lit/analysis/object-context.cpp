// A method's own object is what its callers' objects hold, when its callers
// are all in the file: a tracker's gallery of features that `main` put on the
// GPU meets the CPU query a method builds or is given. Inside the class the
// field holds whatever its constructor was given (unknown); at the calls it
// is known, object by object. The finding is in the method, once, with a
// note at the call whose object supplied the device. Shaped like the
// appearance galleries of public DeepSORT ports.
// RUN: %check_lint %s --checks='%bug_checks' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

// The shape: the gallery keeps the features it is constructed with; main
// builds it from features on the device and queries it from the CPU.
class Gallery {
public:
  explicit Gallery(torch::Tensor features) : features_(std::move(features)) {}
  torch::Tensor distances(const torch::Tensor &query) const {
    return torch::cdist(query, features_);
    // CHECK: :[[@LINE-1]]:12: warning: 'query' is on the CPU (passed by 'trackFrames') but 'features_' is on 'device' (passed by 'trackFrames'); 'torch::cdist' needs all its tensor operands on one device [libtorch-mixed-device-operands]
    // CHECK: :[[@LINE+23]]:32: note: 'query' is on the CPU here: passed by 'trackFrames'
    // CHECK: :[[@LINE+21]]:27: note: created here by 'torch::rand' on the CPU
    // CHECK: :[[@LINE+21]]:14: note: 'gallery.features_' is on 'device' here: passed by 'trackFrames'
    // CHECK: :[[@LINE+16]]:48: note: 'torch::rand({10, 128})' is moved to 'device' here with '.to(device)'
  }
  int64_t closest() const {
    torch::Tensor probe = torch::rand({1, 128});
    return torch::cdist(probe, features_).argmin().item<int64_t>();
    // CHECK: :[[@LINE-1]]:12: warning: 'probe' is on the CPU (created by 'torch::rand' without a device) but 'features_' is on 'device' (passed by 'trackFrames'); 'torch::cdist' needs all its tensor operands on one device [libtorch-mixed-device-operands]
    // CHECK: :[[@LINE-3]]:27: note: created here by 'torch::rand' on the CPU
    // CHECK: :[[@LINE+14]]:14: note: 'gallery.features_' is on 'device' here: passed by 'trackFrames'
    // CHECK: :[[@LINE+8]]:48: note: 'torch::rand({10, 128})' is moved to 'device' here with '.to(device)'
  }

private:
  torch::Tensor features_;
};

void trackFrames(const torch::Device &device) {
  torch::Tensor feats = torch::rand({10, 128}).to(device);
  Gallery gallery(feats);
  for (int frame = 0; frame < 100; ++frame) {
    torch::Tensor query = torch::rand({5, 128});
    auto d = gallery.distances(query);
    auto c = gallery.closest();
  }
}

// One step removed: the stored value is a view of what the constructor is
// given, and the method mixes it after a permute; main passes the features
// through a normalising step first.
class Templates {
public:
  explicit Templates(const torch::Tensor &bank) : bank_(bank.t()) {}
  torch::Tensor score(const std::vector<float> &descriptor) {
    torch::Tensor q = torch::tensor(descriptor).view({1, -1});
    return q.mm(bank_.permute({1, 0}).t());
    // CHECK: :[[@LINE-1]]:14: warning: 'q' is on the CPU (built from host values by 'torch::tensor') but 'bank_.permute({1, 0}).t()' is on 'device' (passed by 'matchTemplates'); '.mm()' needs all its tensor operands on one device [libtorch-mixed-device-operands]
    // CHECK: :[[@LINE-3]]:23: note: created here by 'torch::tensor' from host values
    // CHECK: :[[@LINE+13]]:5: note: 'templates.bank_' is on 'device' here: passed by 'matchTemplates'
    // CHECK: :[[@LINE+8]]:24: note: created here by 'torch::rand' on 'device'
  }

private:
  torch::Tensor bank_;
};

void matchTemplates(const torch::Device &device) {
  torch::Tensor bank = torch::rand({128, 16}, torch::TensorOptions(device));
  Templates templates(torch::nn::functional::normalize(bank));
  std::vector<float> descriptor(128, 0.5f);
  for (int i = 0; i < 10; ++i)
    templates.score(descriptor);
}

// Through a helper: the object reaches the method's call through a function
// that takes it by reference from its only caller.
class Anchors {
public:
  explicit Anchors(torch::Tensor boxes) : boxes_(boxes) {}
  torch::Tensor decode(const torch::Tensor &offsets) const {
    return boxes_ + offsets;
    // CHECK: :[[@LINE-1]]:19: warning: 'offsets' is on the CPU (passed by 'decodeAll') but 'boxes_' is on 'device' (passed by 'decodeAll'); '+' needs all its tensor operands on one device [libtorch-mixed-device-operands]
    // CHECK: :[[@LINE+13]]:25: note: 'offsets' is on the CPU here: passed by 'decodeAll'
    // CHECK: :[[@LINE+11]]:27: note: created here by 'torch::zeros' on the CPU
    // CHECK: :[[@LINE+11]]:10: note: 'anchors.boxes_' is on 'device' here: passed by 'decodeAll'
    // CHECK: :[[@LINE+16]]:15: note: 'anchors.boxes_' is on 'device' here: passed by 'detect'
    // CHECK: :[[@LINE+13]]:41: note: 'torch::rand({100, 4})' is moved to 'device' here with '.to(device)'
  }

private:
  torch::Tensor boxes_;
};

torch::Tensor decodeAll(const Anchors &anchors, int64_t n) {
  torch::Tensor offsets = torch::zeros({n, 4});
  return anchors.decode(offsets);
}

void detect(const torch::Device &device) {
  Anchors anchors(torch::rand({100, 4}).to(device));
  for (int image = 0; image < 8; ++image)
    decodeAll(anchors, 100);
}

// Negatives.
// A gallery whose every object is on the CPU: the host query agrees.
class HostGallery {
public:
  explicit HostGallery(torch::Tensor features) : features_(features) {}
  torch::Tensor distances(const torch::Tensor &query) const {
    return torch::cdist(query, features_);
  }

private:
  torch::Tensor features_;
};

// A method also called on `this`: that call's object is not one a caller
// follows, so nothing is known of the field there (the class's own code
// stores only what it is given).
class SelfQuerying {
public:
  explicit SelfQuerying(torch::Tensor features) : features_(features) {}
  torch::Tensor distances(const torch::Tensor &query) const {
    return torch::cdist(query, features_);
  }
  torch::Tensor selfDistances() const {
    return distances(torch::rand({1, 16}));
  }

private:
  torch::Tensor features_;
};

// A gallery handed by reference to code the file does not define before
// the call: its fields may have been replaced.
void refill(class Refilled &gallery);
class Refilled {
public:
  explicit Refilled(torch::Tensor features) : features_(features) {}
  torch::Tensor distances(const torch::Tensor &query) const {
    return torch::cdist(query, features_);
  }
  torch::Tensor features_;
};

// A query moved to where the gallery is: together on every path.
class Aligned {
public:
  explicit Aligned(torch::Tensor features) : features_(features) {}
  torch::Tensor distances(const torch::Tensor &query) const {
    return torch::cdist(query.to(features_.device()), features_);
  }

private:
  torch::Tensor features_;
};

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  trackFrames(device);
  matchTemplates(device);
  detect(device);

  HostGallery host(torch::rand({10, 16}));
  host.distances(torch::rand({1, 16}));

  SelfQuerying self(torch::rand({10, 16}).to(device));
  self.selfDistances();

  Refilled refilled(torch::rand({10, 16}).to(device));
  refill(refilled);
  refilled.distances(torch::rand({1, 16}));

  Aligned aligned(torch::rand({10, 16}).to(device));
  aligned.distances(torch::rand({1, 16}));
}
