#ifndef LOCAL_H
#define LOCAL_H
#include <torch/api.h>
// The project's own header, reached with <torch/...> through -I: the walk
// enters it (the preprocessor finds it there before the system folders),
// and its units share the PCH of <torch/api.h>; it is never precompiled.
inline int local() { return api::answer(); }
#endif
