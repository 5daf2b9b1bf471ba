#ifndef LOCAL_H
#define LOCAL_H
// The project's own header, reached with <torch/...> through -I: never
// precompiled.
inline int local() { return 1; }
#endif
