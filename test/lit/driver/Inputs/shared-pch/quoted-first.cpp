#include "sys/api.h"
int quotedFirst() { return api::answer(); }
