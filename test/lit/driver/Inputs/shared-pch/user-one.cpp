#include <torch/local.h>
int userOne() { return local(); }
