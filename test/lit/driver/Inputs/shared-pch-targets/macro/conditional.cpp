#include "conditional.h"
int conditional() { return core::answer(); }
