#pragma once
// Stands for LibTorch's CUDA headers where CUDA's own are not installed.
#include <cuda_runtime_not_installed.h>
