// A macro that LibTorch's headers never name, defined before them: the
// PCH, built without it, parses as a whole parse would.
#define API_EXTRA 1
#include <torch/api.h>
int macroFirst() { return api::answer() + API_EXTRA; }
