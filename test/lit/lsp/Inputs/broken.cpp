#include <torch/torch.h>

int broken() { return undeclared_name; }
