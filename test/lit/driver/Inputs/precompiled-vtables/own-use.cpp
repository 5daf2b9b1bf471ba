#include <holder.h>

// A specialization this file instantiates, as a user's module instantiates
// LibTorch's Cloneable<Impl>: its vtable is this file's to define.
int main() {
  Holder<long> Mine;
  return 0;
}
