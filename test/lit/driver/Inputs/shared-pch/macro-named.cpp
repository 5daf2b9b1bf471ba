// A macro LibTorch's header looks at: the PCH built without it would lack
// api::fast(). Parsed whole.
#define API_FAST 1
#include <torch/api.h>
int macroNamed() { return api::fast(); }
