#include "minitorch.h"
torch::Tensor link1(int n);
int main() {
  torch::Tensor x = torch::ones(2).cuda();
  torch::Tensor y = x + link1(2);
}
