//===--- ReplayCommand.cpp - torchtidy replay -----------------------------===//
//
// Replays each static finding's pattern alone, with small tensors, through
// torchtidy-replay (LibTorch, no LLVM), on the accelerator: CUDA when the
// machine has it; otherwise the meta device stands in for device mixes and
// the CPU for graph growth. Prints confirmed / refuted / inconclusive (the
// meta device cannot decide most ops that are not elementwise: their meta
// kernels check no devices) with the evidence, and exits 1 when a bug-level
// finding is confirmed.
//
//===----------------------------------------------------------------------===//

#include "CommandArguments.h"
#include "ReplayCase.h"
#include "RuntimeCommands.h"
#include "StaticFindings.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <unistd.h>

using namespace llvm;

namespace torchtidy {
namespace {

constexpr const char *Usage =
    "usage: torchtidy replay --findings <torchtidy json> [--device "
    "auto|cuda|meta|cpu] [--iterations <n>] [--runtime-dir <dir>]";

struct Captured {
  int ExitCode;
  std::string Stdout;
};

/// Runs Program with Args, its stdout captured and stderr passed through.
std::optional<Captured> runCapturingStdout(StringRef Program,
                                           ArrayRef<std::string> Args,
                                           std::string &Error) {
  SmallString<128> Output;
  int FD;
  if (std::error_code EC = sys::fs::createTemporaryFile("torchtidy-replay",
                                                        "json", FD, Output)) {
    Error = EC.message();
    return std::nullopt;
  }
  ::close(FD);
  std::vector<StringRef> Argv{Program};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(Output),
                                          std::nullopt};
  int ExitCode =
      sys::ExecuteAndWait(Program, Argv, std::nullopt, Redirects,
                          /*SecondsToWait=*/0, /*MemoryLimit=*/0, &Error);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Output);
  sys::fs::remove(Output);
  if (ExitCode < 0)
    return std::nullopt;
  return Captured{ExitCode, Text ? (*Text)->getBuffer().str() : ""};
}

/// Lines of source files, read once each.
class SourceLines {
public:
  StringRef line(const std::string &File, unsigned Line) {
    auto [It, Inserted] = Files.try_emplace(File);
    if (Inserted)
      if (ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
              MemoryBuffer::getFile(File))
        It->second = std::move(*Buffer);
    if (!It->second)
      return "";
    SmallVector<StringRef, 0> Lines;
    It->second->getBuffer().split(Lines, '\n');
    return Line && Line <= Lines.size() ? Lines[Line - 1] : "";
  }

private:
  StringMap<std::unique_ptr<MemoryBuffer>> Files;
};

std::vector<std::string> replayArguments(const ReplayCase &Case,
                                         StringRef Device,
                                         StringRef Iterations) {
  std::vector<std::string> Args{"--device", Device.str()};
  if (Case.CaseKind == ReplayCase::MixedDevice) {
    Args.insert(Args.end(), {"mixed-device", Case.Op});
  } else {
    Args.push_back("accumulation");
    if (!Iterations.empty())
      Args.insert(Args.end(), {"--iterations", Iterations.str()});
  }
  return Args;
}

} // namespace

int replayCommand(ArrayRef<const char *> Args,
                  const RuntimeInstallation &Installation) {
  CommandArguments Arguments(
      Args, {"--findings", "--device", "--iterations", "--runtime-dir"}, {});
  if (Arguments.error())
    return runtimeCommandError(*Arguments.error() + " (" + Usage + ")");
  std::optional<std::string> FindingsPath = Arguments.value("--findings");
  if (!FindingsPath || !Arguments.afterDashDash().empty())
    return runtimeCommandError(Usage);
  std::string Device = Arguments.value("--device").value_or("auto");
  if (Device != "auto" && Device != "cuda" && Device != "meta" &&
      Device != "cpu")
    return runtimeCommandError("unknown --device '" + Device +
                               "' (use auto, cuda, meta or cpu)");
  std::string Iterations = Arguments.value("--iterations").value_or("");
  unsigned IterationCount;
  if (!Iterations.empty() &&
      (StringRef(Iterations).getAsInteger(10, IterationCount) ||
       IterationCount < 2))
    return runtimeCommandError("--iterations needs a whole number of at "
                               "least 2, not '" +
                               Iterations + "'");
  RuntimeInstallation Runtime = selectRuntime(Arguments, Installation);
  if (!sys::fs::can_execute(Runtime.Replay))
    return runtimeCommandError("the replay program is not at '" +
                               Runtime.Replay + "' (" + Runtime.MissingHint +
                               ")");

  Expected<std::vector<StaticFinding>> Findings =
      loadStaticFindings(*FindingsPath);
  if (!Findings)
    return runtimeCommandError(toString(Findings.takeError()));

  std::string Error;
  std::optional<Captured> Listed =
      runCapturingStdout(Runtime.Replay, {"--list-ops"}, Error);
  if (!Listed || Listed->ExitCode != 0)
    return runtimeCommandError("'" + Runtime.Replay + " --list-ops' failed" +
                               (Error.empty() ? "" : ": " + Error));
  std::vector<std::string> KnownOps;
  for (StringRef Op : split(StringRef(Listed->Stdout), '\n'))
    if (!Op.trim().empty())
      KnownOps.push_back(Op.trim().str());

  SourceLines Sources;
  unsigned Confirmed = 0, ConfirmedBugs = 0, Refuted = 0, Inconclusive = 0,
           NotReplayable = 0;
  raw_ostream &OS = outs();
  for (const StaticFinding &Finding : *Findings) {
    if (Finding.Level == "error")
      continue;
    std::optional<ReplayCase> Case = replayCaseOf(
        Finding, Sources.line(Finding.File, Finding.Line), KnownOps);
    if (!Case) {
      ++NotReplayable;
      OS << "not replayable  " << Finding.describe() << "\n";
      continue;
    }
    std::optional<Captured> Ran = runCapturingStdout(
        Runtime.Replay, replayArguments(*Case, Device, Iterations), Error);
    Expected<json::Value> Result =
        Ran ? json::parse(StringRef(Ran->Stdout).trim())
            : Expected<json::Value>(
                  createStringError(inconvertibleErrorCode(), Error));
    const json::Object *Outcome = Result ? Result->getAsObject() : nullptr;
    if (!Outcome) {
      if (!Result)
        consumeError(Result.takeError());
      return runtimeCommandError("torchtidy-replay gave no result for " +
                                 Finding.describe());
    }
    StringRef Verdict = Outcome->getString("outcome").value_or("");
    if (Verdict == "confirmed") {
      ++Confirmed;
      ConfirmedBugs += Finding.Level == "bug";
    } else if (Verdict == "refuted") {
      ++Refuted;
    } else {
      Verdict = "inconclusive";
      ++Inconclusive;
    }
    OS << left_justify(Verdict, 15) << " " << Finding.describe() << ": ";
    if (Case->CaseKind == ReplayCase::MixedDevice)
      OS << "'" << Case->Op << "' (" << Case->OpSource << ")";
    else
      OS << "accumulation loop";
    OS << " on " << Outcome->getString("device").value_or("?") << ": "
       << Outcome->getString("evidence").value_or("") << "\n";
  }
  OS << "summary: " << Confirmed << " confirmed (" << ConfirmedBugs
     << " at the bug level), " << Refuted << " refuted, " << Inconclusive
     << " inconclusive, " << NotReplayable << " not replayable\n";
  return ConfirmedBugs ? 1 : 0;
}

} // namespace torchtidy
