#include "minitorch.h"
torch::Tensor link3(int n);
torch::Tensor link2(int n) { return link3(n); }
