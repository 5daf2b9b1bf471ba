#include "minitorch.h"
torch::Tensor link4(int n);
torch::Tensor link3(int n) { return link4(n); }
