// An include guard instead of #pragma once.
#ifndef ENCODER_H
#define ENCODER_H
#include <torch/core.h>
int encode(int x);
#endif // ENCODER_H
