// A macro defined, undefined and defined again before LibTorch's header:
// the walk stops at the #undef of a name it saw defined. No prefix.
#define API_EXTRA 1
#undef API_EXTRA
#define API_EXTRA 2
#include <torch/api.h>
int macroTwice() { return api::answer() + API_EXTRA; }
