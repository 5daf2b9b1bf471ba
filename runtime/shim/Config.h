//===- Config.h - The shim's environment variables --------------*- C++ -*-===//
//
// TORCHTIDY_REPORT, TORCHTIDY_MAX_SITES, TORCHTIDY_STACK_DEPTH and
// TORCHTIDY_REPORT_PID, read once at load. A bad value is reported as a problem and the default is used: the
// program runs as it would without the shim.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_RUNTIME_SHIM_CONFIG_H
#define TORCHTIDY_RUNTIME_SHIM_CONFIG_H

#include <cstdint>
#include <string>

namespace torchtidy::rt {

/// The most frames kept per call site, whatever TORCHTIDY_STACK_DEPTH says:
/// the stack is captured into a fixed buffer on the observing thread's stack.
constexpr unsigned kMaxStackDepth = 256;

struct Config {
  /// Absolute: resolved against the directory the program started in, so
  /// that a program that changes directory still writes where it was told.
  std::string ReportPath;
  uint64_t MaxSites = 4096;
  unsigned StackDepth = 32;
  /// The one process that records and writes the report, when `torchtidy
  /// run` names it; 0 for any process. The programs a program starts
  /// inherit LD_PRELOAD, load the shim too, and must not overwrite its
  /// report.
  uint64_t ReportingProcess = 0;
};

/// Reads the environment; reports each bad value as a problem.
Config readConfig();

} // namespace torchtidy::rt

#endif
