#include "layers.h"

// One step removed: the features reach dropout through encode, whose own
// caller is in train.cpp.
torch::Tensor encode(torch::Tensor features) {
  return dropout(features, 0.2);
}
