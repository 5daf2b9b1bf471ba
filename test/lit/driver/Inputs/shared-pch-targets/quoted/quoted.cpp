// LibTorch's header in quotes: not in the unit's folders, so the
// preprocessor looks for it as <torch/core.h>, and so does the prefix.
#include "torch/core.h"
int quoted() { return core::answer(); }
