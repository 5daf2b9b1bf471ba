#include "minitorch.h"
torch::Tensor pong(torch::Tensor x, int n);
torch::Tensor ping(torch::Tensor x, int n) { return n ? pong(x, n - 1) : x.cuda(); }
