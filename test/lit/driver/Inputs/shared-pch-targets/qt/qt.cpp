#include "qtcompat.h"
int qt() { return core::answer(); }
