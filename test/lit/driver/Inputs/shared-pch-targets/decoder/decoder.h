// The target's own header first, with #pragma once: its system includes
// are the unit's prefix.
#pragma once
#include <torch/core.h>
#include <vector>
struct Decoder {
  int run() const;
};
