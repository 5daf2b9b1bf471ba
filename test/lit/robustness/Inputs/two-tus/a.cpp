#include "shared.h"
int first() { return 1; }
