#ifndef API_H
#define API_H
// Stands for LibTorch's headers: in a system directory, shared by every file.
namespace api {
inline int answer() { return 42; }
// A macro the header looks at: a unit that defines it first parses whole.
#ifdef API_FAST
inline int fast() { return 1; }
#endif
// One it names only where the preprocessor skips, as LibTorch does: a unit
// may define it first and share.
#ifdef _MSC_VER
#define _USE_MATH_DEFINES
#endif
} // namespace api
#endif
