#include <local.h>
int userOne() { return local(); }
