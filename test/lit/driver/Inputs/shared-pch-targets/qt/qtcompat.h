// Qt's macro `slots` clashes with a LibTorch name: undefined before
// LibTorch's headers (nothing had defined it: a no-op) and defined again
// after them (that ends the prefix).
#pragma once
#undef slots
#include <torch/core.h>
#define slots Q_SLOTS
