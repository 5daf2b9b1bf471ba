#ifndef API_H
#define API_H
// Stands for LibTorch's headers: in a system directory, shared by every file.
namespace api {
inline int answer() { return 42; }
} // namespace api
#endif
