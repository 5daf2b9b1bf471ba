#include "macro.h"
int fast() { return CORE_FAST + core::answer(); }
