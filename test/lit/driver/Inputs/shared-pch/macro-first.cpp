#define API_EXTRA 1
#include <torch/api.h>
int macroFirst() { return api::answer(); }
