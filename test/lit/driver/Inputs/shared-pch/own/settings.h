#pragma once
// The project's header defines its macro, then includes LibTorch's.
#define OWN_SETTING 3
#include <torch/api.h>
