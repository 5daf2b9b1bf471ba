#include "layers.h"

// The mask is drawn on the CPU, whatever device X is on.
torch::Tensor dropout(torch::Tensor X, double p) {
  auto keep = (torch::rand(X.sizes()) > p).to(torch::kFloat);
  return X * keep / (1.0 - p);
}

// Through a helper: block's callers are in other files.
torch::Tensor block(torch::Tensor X) { return dropout(torch::relu(X), 0.1); }

// Correct: the noise is drawn where X is.
torch::Tensor gaussianNoise(torch::Tensor X, double scale) {
  return X + torch::randn(X.sizes(), X.options()) * scale;
}

// Every caller passes a host tensor: host statistics are right for it.
torch::Tensor standardize(torch::Tensor X) {
  auto mean = torch::zeros({X.size(1)});
  return X - mean;
}

// A caller takes its address: its calls are not all seen.
torch::Tensor clipped(torch::Tensor X) {
  return torch::min(X, torch::ones({X.size(1)}));
}

// The callers pass the offset where they pass X.
torch::Tensor shifted(torch::Tensor X, torch::Tensor offset) {
  return X + offset;
}

// Drawn on the CPU like dropout's mask, but a header calls it too.
torch::Tensor jitter(torch::Tensor X) {
  return X + torch::rand({X.size(1)});
}
