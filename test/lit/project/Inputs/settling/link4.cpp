#include "minitorch.h"
torch::Tensor link5(int n);
torch::Tensor link4(int n) { return link5(n); }
