#ifndef API_H
#define API_H
// Stands for LibTorch's headers: in a system directory, shared by every file.
namespace api {
inline int answer() { return 42; }
// A macro the header looks at: a unit that defines it first parses whole.
#ifdef API_FAST
inline int fast() { return 1; }
#endif
// One it names only where the preprocessor skips (as LibTorch does with
// _USE_MATH_DEFINES under _MSC_VER): a unit may define it first and share.
#ifdef API_NEVER_DEFINED
#define API_SKIPPED_NAME 1
#endif
} // namespace api
#endif
