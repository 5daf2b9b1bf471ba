// Declared for every file of a project: other files may call it with any
// tensor, so its parameters are unknown in the file that defines it.
#include <torch/torch.h>
torch::Tensor shared_dropout(torch::Tensor X, double dropout);
