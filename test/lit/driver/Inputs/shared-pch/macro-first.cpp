#define API_EXTRA 1
#include <api.h>
int macroFirst() { return api::answer(); }
