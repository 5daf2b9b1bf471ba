#include "shared.h"
int second() { return 2; }
