// A longer prefix: its start, <torch/core.h>, is the one the other units
// share, and this unit parses against that PCH too.
#include <torch/core.h>
#include <torch/detail.h>
int zoo() { return core::answer() + detail::value(); }
