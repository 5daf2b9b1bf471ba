//===--- RunCommand.cpp - torchtidy run -----------------------------------===//
//
// Runs a program with the shim preloaded, then symbolizes the report the shim
// wrote and summarizes it on stderr. The program keeps its terminal, its
// environment (plus LD_PRELOAD and TORCHTIDY_REPORT) and its exit status:
// torchtidy run exits as the program did (128 + N for signal N), and with 2
// only when it could not run the program or the program left no report.
//
//===----------------------------------------------------------------------===//

#include "CommandArguments.h"
#include "RuntimeCommands.h"
#include "RuntimeReport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace llvm;

namespace torchtidy {
namespace {

constexpr int UsageOrInputError = 2;

/// LD_PRELOAD with the shim first, keeping what the user preloads. The
/// sanitizer build's shim is instrumented, and the sanitizer runtime it links
/// must be the first library of the process: it goes ahead of the shim.
std::string preloadWith(StringRef Shim) {
  std::string Preload = Shim.str();
#ifdef TORCHTIDY_SHIM_SANITIZER_RUNTIME
  Preload = std::string(TORCHTIDY_SHIM_SANITIZER_RUNTIME) + ":" + Preload;
#endif
  const char *Existing = std::getenv("LD_PRELOAD");
  if (Existing && *Existing)
    Preload += std::string(":") + Existing;
  return Preload;
}

/// Forks and executes the program; returns its wait status, or the errno of
/// a failed exec. A close-on-exec pipe tells the two apart: it closes
/// silently when exec succeeds.
struct Launch {
  int WaitStatus = 0;
  int ExecErrno = 0;
};

std::optional<Launch> launch(const std::vector<std::string> &Command,
                             StringRef Shim, StringRef ReportPath) {
  int ExecPipe[2];
  if (pipe2(ExecPipe, O_CLOEXEC) != 0)
    return std::nullopt;
  std::string Preload = preloadWith(Shim);
  std::vector<char *> Argv;
  for (const std::string &Arg : Command)
    Argv.push_back(const_cast<char *>(Arg.c_str()));
  Argv.push_back(nullptr);

  pid_t Child = fork();
  if (Child < 0)
    return std::nullopt;
  if (Child == 0) {
    close(ExecPipe[0]);
    setenv("LD_PRELOAD", Preload.c_str(), 1);
    setenv("TORCHTIDY_REPORT", ReportPath.str().c_str(), 1);
    // Only this process writes the report: the programs it starts in turn
    // inherit LD_PRELOAD, and must not overwrite it.
    setenv("TORCHTIDY_REPORT_PID", std::to_string(getpid()).c_str(), 1);
    execvp(Argv[0], Argv.data());
    int Errno = errno;
    (void)!write(ExecPipe[1], &Errno, sizeof Errno);
    _exit(127);
  }
  close(ExecPipe[1]);
  Launch Result;
  if (read(ExecPipe[0], &Result.ExecErrno, sizeof Result.ExecErrno) <= 0)
    Result.ExecErrno = 0;
  close(ExecPipe[0]);
  // As system() does: ^C and ^\ reach the program (same process group);
  // torchtidy waits for it and still reads the report.
  struct sigaction Ignore = {}, OldInt, OldQuit;
  Ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &Ignore, &OldInt);
  sigaction(SIGQUIT, &Ignore, &OldQuit);
  while (waitpid(Child, &Result.WaitStatus, 0) < 0 && errno == EINTR) {
  }
  sigaction(SIGINT, &OldInt, nullptr);
  sigaction(SIGQUIT, &OldQuit, nullptr);
  return Result;
}

/// Path relative to the current directory when it lies below it.
std::string displayPath(StringRef Path) {
  SmallString<256> Cwd;
  if (!sys::fs::current_path(Cwd) && Path.starts_with(Cwd) &&
      Path.size() > Cwd.size() && sys::path::is_separator(Path[Cwd.size()]))
    return Path.drop_front(Cwd.size() + 1).str();
  return Path.str();
}

void printSummary(const RuntimeReport &Report, raw_ostream &OS) {
  OS << "torchtidy: runtime report '" << displayPath(Report.Path)
     << "': the program ended with " << Report.End << "; "
     << Report.Events.size() << " call site(s) recorded";
  if (Report.DroppedEvents)
    OS << ", " << Report.DroppedEvents << " more dropped (TORCHTIDY_MAX_SITES)";
  OS << "\n";
  for (const RuntimeEvent &Event : Report.Events) {
    OS << "  " << left_justify(Event.Kind, 22) << " "
       << left_justify(Event.Op, 22) << " "
       << right_justify(std::to_string(Event.Count) + "x", 7);
    if (!Event.Devices.empty())
      OS << "  on " << join(Event.Devices, ", ");
    if (Event.Kind == "graph_growth")
      OS << "  +" << format("%.1f", Event.GrowthPerIteration)
         << " autograd depth per iteration";
    if (Event.UserFrames.empty()) {
      OS << "  (no frame in the program's code: build it with -g)\n";
      continue;
    }
    SourceFrame Where = Event.UserFrames.front();
    Where.File = displayPath(Where.File);
    OS << "  at " << describe(Where);
    if (!Where.Function.empty() && !Where.File.empty())
      OS << " in " << Where.Function;
    OS << "\n";
  }
  for (const std::string &Problem : Report.Problems)
    OS << "  problem: " << Problem << "\n";
}

int exitStatusOf(int WaitStatus) {
  if (WIFEXITED(WaitStatus))
    return WEXITSTATUS(WaitStatus);
  if (WIFSIGNALED(WaitStatus))
    return 128 + WTERMSIG(WaitStatus);
  return UsageOrInputError;
}

} // namespace

int runCommand(ArrayRef<const char *> Args,
               const RuntimeInstallation &Installation) {
  constexpr const char *Usage = "usage: torchtidy run [--report <file>] "
                                "[--runtime-dir <dir>] -- <program> "
                                "[<args>...]";
  CommandArguments Arguments(Args, {"--report", "--runtime-dir"}, {});
  if (Arguments.error())
    return runtimeCommandError(*Arguments.error() + " (" + Usage + ")");
  if (Arguments.afterDashDash().empty())
    return runtimeCommandError(Twine("no program to run (") + Usage + ")");
  RuntimeInstallation Runtime = selectRuntime(Arguments, Installation);
  if (!sys::fs::exists(Runtime.Shim))
    return runtimeCommandError("the runtime shim is not at '" + Runtime.Shim +
                               "' (" + Runtime.MissingHint + ")");

  // Absolute: the program may change directory before the shim writes.
  SmallString<256> ReportPath(
      Arguments.value("--report").value_or("torchtidy-runtime.json"));
  sys::fs::make_absolute(ReportPath);
  // A report left from an earlier run must not pass for this run's.
  if (std::error_code EC = sys::fs::remove(ReportPath))
    return runtimeCommandError("cannot replace '" + ReportPath +
                               "': " + EC.message());

  std::optional<Launch> Ran =
      launch(Arguments.afterDashDash(), Runtime.Shim, ReportPath);
  if (!Ran)
    return runtimeCommandError("cannot start a process: " +
                               std::string(std::strerror(errno)));
  const std::string &Program = Arguments.afterDashDash().front();
  if (Ran->ExecErrno)
    return runtimeCommandError("cannot run '" + Program +
                               "': " + std::strerror(Ran->ExecErrno));
  int Status = exitStatusOf(Ran->WaitStatus);

  if (!sys::fs::exists(ReportPath)) {
    std::string How = WIFSIGNALED(Ran->WaitStatus)
                          ? " (killed by signal " +
                                std::to_string(WTERMSIG(Ran->WaitStatus)) + ")"
                          : "";
    return runtimeCommandError(
        "'" + Program + "'" + How + " left no runtime report at '" +
        ReportPath +
        "': it does not load LibTorch dynamically, or it was killed before "
        "the shim wrote anything");
  }
  // Symbolized once, here, and kept: validate reads the frames as written.
  Expected<json::Value> Raw = readJsonFile(ReportPath);
  if (!Raw)
    return runtimeCommandError(toString(Raw.takeError()));
  json::Object *Object = Raw->getAsObject();
  if (!Object)
    return runtimeCommandError("'" + ReportPath +
                               "' is not a torchtidy runtime report");
  Expected<RuntimeReport> Report = interpretRuntimeReport(*Object, ReportPath);
  if (!Report)
    return runtimeCommandError(toString(Report.takeError()));
  if (Error E = writeJsonFileAtomically(ReportPath, *Raw))
    return runtimeCommandError(toString(std::move(E)));
  printSummary(*Report, errs());
  return Status;
}

} // namespace torchtidy
