//===- Lifecycle.cpp - Writing the report however the program ends --------===//

#include "Lifecycle.h"
#include "Problems.h"
#include "Shim.h"

#include <c10/util/Exception.h>

#include <csignal>
#include <cstdlib>
#include <exception>
#include <pthread.h>

namespace torchtidy::rt {

namespace {
std::terminate_handler PreviousTerminate = nullptr;

/// The signals that end a program with a core dump: the ones a bug ends it
/// with.
constexpr int kFatalSignals[] = {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL};

/// exit() and a return from main: on_exit, unlike atexit, is told the status.
void onExit(int Status, void *) {
  if (Shim *S = Shim::get()) {
    EndState End;
    End.Kind = EndState::How::Exit;
    End.Code = Status;
    S->endReport(End);
  }
}

/// The message of the exception being handled, c10::Error's without its
/// C++ backtrace.
std::string currentExceptionWhat() {
  std::exception_ptr Current = std::current_exception();
  if (!Current)
    return "std::terminate called without an active exception";
  try {
    std::rethrow_exception(Current);
  } catch (const c10::Error &Error) {
    return Error.what_without_backtrace();
  } catch (const std::exception &Error) {
    return Error.what();
  } catch (...) {
    return "an exception of a type not derived from std::exception";
  }
}

[[noreturn]] void onTerminate() {
  try {
    if (Shim *S = Shim::get()) {
      EndState End;
      End.Kind = EndState::How::Exception;
      End.What = currentExceptionWhat();
      S->endReport(End);
    }
  } catch (...) {
  }
  // The previous handler (the C++ runtime's, which prints the exception and
  // aborts) ends the program as it would have ended without the shim.
  if (PreviousTerminate)
    PreviousTerminate();
  std::abort();
}

void onFatalSignal(int Signal) {
  if (Shim *S = Shim::get()) {
    EndState End;
    End.Kind = EndState::How::Signal;
    End.Code = Signal;
    S->endReport(End, /*FromSignal=*/true);
  }
  // Die of the same signal: the default action, re-raised. The signal is
  // blocked while this handler runs, so it is delivered once it returns (or,
  // for a fault, the faulting instruction raises it again).
  std::signal(Signal, SIG_DFL);
  std::raise(Signal);
}

void onForkChild() {
  if (Shim *S = Shim::get())
    S->disableInChild();
}

void installSignalHandlers() {
  for (int Signal : kFatalSignals) {
    struct sigaction Previous;
    if (sigaction(Signal, nullptr, &Previous) != 0)
      continue;
    // The program (or whoever ran it) handles or ignores this signal: leave
    // it alone, since the shim must not change what the signal does.
    if ((Previous.sa_flags & SA_SIGINFO) || Previous.sa_handler != SIG_DFL)
      continue;
    struct sigaction Action = {};
    Action.sa_handler = &onFatalSignal;
    sigemptyset(&Action.sa_mask);
    // SA_ONSTACK: a stack overflow can still be reported on a thread that
    // has an alternate signal stack.
    Action.sa_flags = SA_ONSTACK;
    sigaction(Signal, &Action, nullptr);
  }
}
} // namespace

void installLifecycleHooks() {
  if (on_exit(&onExit, nullptr) != 0)
    reportProblem("cannot register an exit handler: the report is written "
                  "only when a new call site is recorded");
  PreviousTerminate = std::set_terminate(&onTerminate);
  installSignalHandlers();
  pthread_atfork(nullptr, nullptr, &onForkChild);
}

} // namespace torchtidy::rt
