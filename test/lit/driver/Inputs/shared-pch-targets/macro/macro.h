// A macro defined before LibTorch's header that the header looks at: the
// PCH, built without it, would parse otherwise. Parsed whole.
#pragma once
#define CORE_FAST 1
#include <torch/core.h>
