#pragma once
#include "minitorch.h"
torch::Tensor load_batch(int n);
