//===--- ValidateCommand.cpp - torchtidy validate -------------------------===//
//
// Marks each static finding confirmed, not reproduced or not observable at
// runtime, from one or more runtime reports (a program run on several
// devices, or several programs), then lists the runtime events no finding
// predicted. Exits 1 when a bug-level finding is confirmed, so CI can gate
// on it.
//
//===----------------------------------------------------------------------===//

#include "CommandArguments.h"
#include "RuntimeCommands.h"
#include "RuntimeMatching.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace torchtidy {
namespace {

constexpr const char *Usage =
    "usage: torchtidy validate --findings <torchtidy json> --runtime "
    "<report> [--runtime <report>...]";

std::string describeEvent(const RuntimeEvent &Event) {
  std::string Text = Event.Kind + " " + Event.Op;
  if (!Event.Devices.empty())
    Text += " on " + join(Event.Devices, ", ");
  Text += ", " + std::to_string(Event.Count) + "x";
  if (!Event.UserFrames.empty())
    Text += " at " + describe(Event.UserFrames.front());
  return Text;
}

} // namespace

int validateCommand(ArrayRef<const char *> Args) {
  CommandArguments Arguments(Args, {"--findings", "--runtime"}, {});
  if (Arguments.error())
    return runtimeCommandError(*Arguments.error() + " (" + Usage + ")");
  std::optional<std::string> FindingsPath = Arguments.value("--findings");
  std::vector<std::string> ReportPaths = Arguments.values("--runtime");
  if (!FindingsPath || ReportPaths.empty() ||
      !Arguments.afterDashDash().empty())
    return runtimeCommandError(Usage);

  Expected<std::vector<StaticFinding>> Findings =
      loadStaticFindings(*FindingsPath);
  if (!Findings)
    return runtimeCommandError(toString(Findings.takeError()));
  std::vector<RuntimeEvent> Events;
  for (const std::string &Path : ReportPaths) {
    Expected<RuntimeReport> Report = loadRuntimeReport(Path);
    if (!Report)
      return runtimeCommandError(toString(Report.takeError()));
    llvm::append_range(Events, Report->Events);
  }

  unsigned Confirmed = 0, ConfirmedBugs = 0, NotReproduced = 0,
           NotObservable = 0;
  raw_ostream &OS = outs();
  for (const StaticFinding &Finding : *Findings) {
    if (Finding.Level == "error")
      continue;
    if (!runtimeEventKindOf(Finding.Check)) {
      ++NotObservable;
      OS << "not observable  " << Finding.describe()
         << " (nothing at runtime shows it)\n";
    } else if (const RuntimeEvent *Event =
                   findConfirmingEvent(Finding, Events)) {
      ++Confirmed;
      ConfirmedBugs += Finding.Level == "bug";
      OS << "confirmed       " << Finding.describe() << ": "
         << describeEvent(*Event) << "\n";
    } else {
      ++NotReproduced;
      OS << "not reproduced  " << Finding.describe() << "\n";
    }
  }
  unsigned Misses = 0;
  for (const RuntimeEvent &Event : Events)
    if (isStaticMiss(Event, *Findings)) {
      if (!Misses++)
        OS << "runtime events no static finding predicted:\n";
      OS << "  " << describeEvent(Event) << "\n";
    }
  OS << "summary: " << Confirmed << " confirmed (" << ConfirmedBugs
     << " at the bug level), " << NotReproduced << " not reproduced, "
     << NotObservable << " not observable at runtime; " << Misses
     << " runtime event(s) without a finding\n";
  return ConfirmedBugs ? 1 : 0;
}

} // namespace torchtidy
