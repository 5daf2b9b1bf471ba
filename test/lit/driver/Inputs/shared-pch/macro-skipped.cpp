// A macro LibTorch's header names only in a block the preprocessor skips
// (_USE_MATH_DEFINES under _MSC_VER): shares too.
#define _USE_MATH_DEFINES
#include <torch/api.h>
int macroSkipped() { return api::answer(); }
