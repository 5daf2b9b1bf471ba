// Comments and blank lines before the includes are part of no prefix.

#include <api.h>
int first() { return api::answer(); }
