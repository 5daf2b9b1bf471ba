#include "minitorch.h"
torch::Tensor link7(int n);
torch::Tensor link6(int n) { return link7(n); }
