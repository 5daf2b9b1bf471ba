#include "sys/torch/api.h"
int quotedFirst() { return api::answer(); }
