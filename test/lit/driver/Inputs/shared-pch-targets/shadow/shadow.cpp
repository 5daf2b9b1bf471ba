#include <torch/core.h>
static_assert(sizeof(int) > 1, "");
int shadowed() { return detail::value(); }
