// Comments and blank lines before the includes are part of no prefix.

#include <torch/api.h>
int first() { return api::answer(); }
