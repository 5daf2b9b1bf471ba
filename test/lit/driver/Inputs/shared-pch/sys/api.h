#ifndef API_H
#define API_H
// Stands for a library's system header: shared by every file of the project.
namespace api {
inline int answer() { return 42; }
} // namespace api
#endif
