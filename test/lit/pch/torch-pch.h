// Precompiled once per build of the tests: parsing torch/torch.h costs ~20 s,
// loading this PCH ~3 s.
#include <torch/torch.h>
