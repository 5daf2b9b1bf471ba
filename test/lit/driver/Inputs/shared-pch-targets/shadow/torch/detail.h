// Found before the system's torch/detail.h by this target's -I folder: the
// PCH, built without that folder, holds the other one.
#pragma once
namespace detail {
inline int value() { return 7; }
} // namespace detail
