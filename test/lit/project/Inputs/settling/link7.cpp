#include "minitorch.h"
torch::Tensor link7(int n) { return torch::ones(n); }
