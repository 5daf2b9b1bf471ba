/* A block comment. */
#include <torch/api.h> // a trailing comment
// What follows LibTorch's last header is not part of the shared prefix: this
// file shares first.cpp's.
#include <stddef.h>
int second() { return api::answer() + int(sizeof(size_t)); }
