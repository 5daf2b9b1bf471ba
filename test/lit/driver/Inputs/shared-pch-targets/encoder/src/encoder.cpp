#include "encoder.h"
int encode(int x) { return x + core::answer(); }
