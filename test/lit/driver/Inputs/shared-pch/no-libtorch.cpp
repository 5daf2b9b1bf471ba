#include <stddef.h>
// No LibTorch header first: nothing worth sharing.
int noLibTorch() { return int(sizeof(size_t)); }
