#include "minitorch.h"
torch::Tensor ping(torch::Tensor x, int n);
torch::Tensor pong(torch::Tensor x, int n) { return n ? ping(x, n - 1) : x.cpu(); }
