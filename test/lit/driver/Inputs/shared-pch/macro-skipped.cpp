// A macro LibTorch's header names only in a block the preprocessor skips:
// shares too.
#define API_SKIPPED_NAME 2
#include <torch/api.h>
int macroSkipped() { return api::answer() + API_SKIPPED_NAME; }
