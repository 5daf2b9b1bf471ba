// A project whose helpers learn where their inputs are from the files that
// call them: layers in layers.cpp, an encoder in encoder.cpp, the program in
// train.cpp.
#pragma once
#include <torch/torch.h>

// layers.cpp
torch::Tensor dropout(torch::Tensor X, double p);
torch::Tensor block(torch::Tensor X);
torch::Tensor gaussianNoise(torch::Tensor X, double scale);
torch::Tensor standardize(torch::Tensor X);
torch::Tensor clipped(torch::Tensor X);
torch::Tensor shifted(torch::Tensor X, torch::Tensor offset);
torch::Tensor jitter(torch::Tensor X);

// A header's own code calls jitter: every file that includes it does, and
// none of them says what it passes.
inline torch::Tensor augment(torch::Tensor X) { return jitter(X); }

// encoder.cpp
torch::Tensor encode(torch::Tensor features);
