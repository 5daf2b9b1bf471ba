// A macro the compiler defines already (_GNU_SOURCE, for C++ on Linux),
// defined again: every build meets its name. Parsed whole.
#define _GNU_SOURCE 1
#include <torch/api.h>
int macroPredefined() { return api::answer(); }
