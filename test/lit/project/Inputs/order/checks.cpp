// Its callee is named otherwise than the header it includes: the guess
// misses, and the settling lints it again, with the same finding.
#include "api.h"
torch::Tensor check(int n) {
  torch::Tensor scores = torch::ones(n).cuda();
  return scores + make_labels(n);
}
