// A conditional before LibTorch's header ends the prefix too.
#pragma once
#if defined(FAST)
#include <vector>
#endif
#include <torch/core.h>
