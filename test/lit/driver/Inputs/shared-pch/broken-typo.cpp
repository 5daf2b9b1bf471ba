#include <torch/api.h>
// An error with a spelling suggestion: parsed again whole.
int typo() { return api::answr(); }
