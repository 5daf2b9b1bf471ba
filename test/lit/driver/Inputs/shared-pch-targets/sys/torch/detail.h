#pragma once
namespace detail {
inline int value() { return 42; }
} // namespace detail
