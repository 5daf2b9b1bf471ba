#include "minitorch.h"
torch::Tensor link2(int n);
torch::Tensor link1(int n) { return link2(n); }
