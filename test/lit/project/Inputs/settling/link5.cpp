#include "minitorch.h"
torch::Tensor link6(int n);
torch::Tensor link5(int n) { return link6(n); }
