#include <torch/api.h>
int broken() { return api::no_such_function(); }
