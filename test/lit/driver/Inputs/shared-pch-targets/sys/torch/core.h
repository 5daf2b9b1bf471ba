#pragma once
#include <torch/detail.h>
namespace core {
inline int answer() { return detail::value(); }
} // namespace core
