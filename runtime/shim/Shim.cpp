//===- Shim.cpp - The shim's process-wide state ---------------------------===//

#include "Shim.h"
#include "Problems.h"

#include <cerrno>
#include <climits>
#include <time.h>
#include <unistd.h>

namespace torchtidy::rt {

std::atomic<Shim *> Shim::Instance{nullptr};

namespace {
std::string programPath() {
  char Buffer[PATH_MAX];
  ssize_t Length = ::readlink("/proc/self/exe", Buffer, sizeof(Buffer) - 1);
  if (Length <= 0)
    return "";
  return std::string(Buffer, static_cast<size_t>(Length));
}
} // namespace

Shim::Shim(Config Cfg)
    : Cfg(std::move(Cfg)), Program(programPath()), Modules(Program),
      Sites(this->Cfg.MaxSites, Modules) {}

void Shim::create() {
  if (get())
    return;
  auto *Created = new Shim(readConfig());
  uint64_t Reporting = Created->Cfg.ReportingProcess;
  if (Reporting && Reporting != static_cast<uint64_t>(::getpid()))
    Created->Active.store(false, std::memory_order_relaxed);
  Instance.store(Created, std::memory_order_release);
}

void Shim::flushReport() {
  if (!active())
    return;
  write(EndState(), /*FromSignal=*/false);
}

void Shim::endReport(const EndState &End, bool FromSignal) {
  // Not in a child: its exit must leave the parent's report alone.
  if (!active() || Ended.exchange(true))
    return;
  Active.store(false, std::memory_order_relaxed);
  // A process that ran no op may be a program's child that inherited
  // LD_PRELOAD (a shell started by system()): it must not overwrite the
  // program's report, so it only writes where there is none yet.
  if (!SawOp.load(std::memory_order_relaxed) &&
      ::access(Cfg.ReportPath.c_str(), F_OK) == 0)
    return;
  write(End, FromSignal);
}

bool Shim::write(const EndState &End, bool FromSignal) {
  // The program may look at errno right after an op, or after the signal
  // handler returns: leave it as it was.
  int SavedErrno = errno;
  std::unique_lock<std::mutex> Guard(WriteLock, std::defer_lock);
  if (FromSignal) {
    for (int Attempt = 0; Attempt < 200 && !Guard.owns_lock(); ++Attempt) {
      if (!Guard.try_lock()) {
        struct timespec Pause = {0, 1000000};
        nanosleep(&Pause, nullptr);
      }
    }
    if (!Guard.owns_lock()) {
      errno = SavedErrno;
      return false;
    }
  } else {
    Guard.lock();
  }
  ReportBuilder Builder(static_cast<int>(::getpid()), Program, End);
  uint64_t Dropped = 0;
  bool Visited = Sites.visit([&](const Site &Entry) { Builder.addSite(Entry); },
                             Dropped, FromSignal);
  bool Written = false;
  if (Visited) {
    std::string Text = Builder.finish(Modules.paths(), Dropped, problems());
    std::string Error;
    Written = writeFileAtomically(Cfg.ReportPath, Text, Error);
    if (!Written)
      reportProblem("cannot write the report to " + Cfg.ReportPath + ": " +
                    Error);
  }
  errno = SavedErrno;
  return Written;
}

} // namespace torchtidy::rt
