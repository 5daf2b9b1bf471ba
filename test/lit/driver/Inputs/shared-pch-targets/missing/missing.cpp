// A third-party header that is not installed: the parse stops there, with
// the PCH or without, so the error is kept from the parse against the PCH.
#include <torch/core.h>
#include "not_installed.h"
int missing() { return core::answer(); }
