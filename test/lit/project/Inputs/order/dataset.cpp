#include "dataset.h"
torch::Tensor load_batch(int n) { return torch::ones(n); }
