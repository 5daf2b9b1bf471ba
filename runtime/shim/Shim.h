//===- Shim.h - The shim's process-wide state -------------------*- C++ -*-===//
//
// One instance per process, created at load and never destroyed: ops and
// exit handlers can run during static destruction, and must still find it.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_RUNTIME_SHIM_SHIM_H
#define TORCHTIDY_RUNTIME_SHIM_SHIM_H

#include "Config.h"
#include "ReportWriter.h"
#include "SiteTable.h"
#include "StackCapture.h"

#include <atomic>
#include <mutex>
#include <string>

namespace torchtidy::rt {

class Shim {
public:
  /// Reads the configuration and creates the instance; once, at load.
  static void create();
  /// The instance, or null before create().
  static Shim *get() { return Instance.load(std::memory_order_acquire); }

  const Config &config() const { return Cfg; }
  SiteTable &sites() { return Sites; }

  /// Whether ops are still to be observed: false in a forked child, in a
  /// process TORCHTIDY_REPORT_PID does not name, and once the program has
  /// ended.
  bool active() const { return Active.load(std::memory_order_relaxed); }
  /// Called in the child after fork: it records nothing and writes nothing.
  void disableInChild() { Active.store(false, std::memory_order_relaxed); }
  /// Notes that this process runs LibTorch ops: a process that never does
  /// (a shell the program starts, which inherits LD_PRELOAD) writes its
  /// final report only where there is none yet, so as not to overwrite the
  /// program's.
  void noteOp() {
    if (!SawOp.load(std::memory_order_relaxed))
      SawOp.store(true, std::memory_order_relaxed);
  }

  /// Writes the report of a program still running: a new call site was
  /// just recorded.
  void flushReport();
  /// Writes the final report, the first time only: an uncaught exception
  /// ends in abort(), whose SIGABRT must not overwrite "exception" with
  /// "signal". \p FromSignal: in a signal handler, where locks are only
  /// tried.
  void endReport(const EndState &End, bool FromSignal = false);

private:
  explicit Shim(Config Cfg);
  bool write(const EndState &End, bool FromSignal);

  static std::atomic<Shim *> Instance;

  const Config Cfg;
  const std::string Program;
  ModuleTable Modules;
  SiteTable Sites;
  std::mutex WriteLock;
  std::atomic<bool> Active{true};
  std::atomic<bool> SawOp{false};
  std::atomic<bool> Ended{false};
};

} // namespace torchtidy::rt

#endif
