//===- Observer.h - The RecordFunction callbacks ----------------*- C++ -*-===//
//
// The shim watches every ATen op through one global RecordFunction callback
// pair, with inputs and outputs. Only the outermost op of each thread is
// examined: an op built from other ops is one event, at the op the program
// called.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_RUNTIME_SHIM_OBSERVER_H
#define TORCHTIDY_RUNTIME_SHIM_OBSERVER_H

namespace torchtidy::rt {

/// Registers the callbacks; once, at load, before the program runs an op.
void registerObserver();

} // namespace torchtidy::rt

#endif
