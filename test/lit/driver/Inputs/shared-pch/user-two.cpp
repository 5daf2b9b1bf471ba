#include <torch/local.h>
int userTwo() { return local() + 1; }
