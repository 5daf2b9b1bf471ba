// A macro defined before LibTorch's header may change how it parses: no
// prefix.
#pragma once
#define CORE_FAST 1
#include <torch/core.h>
