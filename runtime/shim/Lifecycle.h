//===- Lifecycle.h - Writing the report however the program ends -*- C++ -*-=//
//
// A program that dies of the bug it hit must still leave its report: the
// shim writes it at exit, on std::terminate (an uncaught c10::Error
// included) and on a fatal signal, then lets the program end exactly as it
// would have without the shim. A forked child records and writes nothing.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_RUNTIME_SHIM_LIFECYCLE_H
#define TORCHTIDY_RUNTIME_SHIM_LIFECYCLE_H

namespace torchtidy::rt {

/// Installs the exit, terminate, fatal-signal and fork hooks; once, at load.
void installLifecycleHooks();

} // namespace torchtidy::rt

#endif
