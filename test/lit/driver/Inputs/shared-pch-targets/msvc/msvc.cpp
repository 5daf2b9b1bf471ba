#include "msvc.h"
int msvc() { return core::answer(); }
