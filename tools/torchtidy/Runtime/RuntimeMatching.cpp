//===--- RuntimeMatching.cpp - Static findings against runtime events -----===//

#include "RuntimeMatching.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace torchtidy {
namespace {

bool isRepeatedEnough(const RuntimeEvent &Event) {
  return Event.Kind != "sync" || Event.Count > 1;
}

bool hitsLine(const RuntimeEvent &Event, StringRef File, unsigned Line) {
  return any_of(Event.UserFrames, [&](const SourceFrame &Frame) {
    return Frame.Line == Line && isSameFile(Frame.File, File);
  });
}

} // namespace

std::optional<StringRef> runtimeEventKindOf(StringRef Check) {
  // The catalogue's RuntimeEvent column; `none` for a check nothing at run
  // time shows, and for a name that is no check.
  StringRef Kind = StringSwitch<StringRef>(Check)
#define TORCHTIDY_CHECK(Name, Class, Level, RuntimeEvent, Summary)             \
  .Case(Name, #RuntimeEvent)
#include "Checks/CheckCatalogue.def"
                       .Default("none");
  if (Kind == "none")
    return std::nullopt;
  return Kind;
}

const RuntimeEvent *findConfirmingEvent(const StaticFinding &Finding,
                                        ArrayRef<RuntimeEvent> Events) {
  std::optional<StringRef> Kind = runtimeEventKindOf(Finding.Check);
  if (!Kind)
    return nullptr;
  for (const RuntimeEvent &Event : Events)
    if (Event.Kind == *Kind && isRepeatedEnough(Event) &&
        hitsLine(Event, Finding.File, Finding.Line))
      return &Event;
  return nullptr;
}

bool isStaticMiss(const RuntimeEvent &Event, ArrayRef<StaticFinding> Findings) {
  if (!isRepeatedEnough(Event))
    return false;
  return none_of(Findings, [&](const StaticFinding &Finding) {
    return runtimeEventKindOf(Finding.Check) == StringRef(Event.Kind) &&
           hitsLine(Event, Finding.File, Finding.Line);
  });
}

} // namespace torchtidy
