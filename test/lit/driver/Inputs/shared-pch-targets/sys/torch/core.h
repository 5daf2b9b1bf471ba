#pragma once
#include <torch/detail.h>
// A setting the project may define first (macro/macro.h does).
#ifndef CORE_FAST
#define CORE_FAST 0
#endif
namespace core {
inline int answer() { return detail::value(); }
} // namespace core
