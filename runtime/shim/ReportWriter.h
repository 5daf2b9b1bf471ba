//===- ReportWriter.h - The report's JSON, written atomically ---*- C++ -*-===//
//
// The report is hand-written JSON (the format is in docs/runtime.md), written
// to a temporary file beside the report and renamed over it, so that a
// reader never sees half a report, even of a program killed mid-write.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_RUNTIME_SHIM_REPORTWRITER_H
#define TORCHTIDY_RUNTIME_SHIM_REPORTWRITER_H

#include "SiteTable.h"

#include <string>
#include <string_view>
#include <vector>

namespace torchtidy::rt {

/// How the program ended, as far as the report knows.
struct EndState {
  enum class How { Running, Exit, Exception, Signal };
  How Kind = How::Running;
  int Code = 0;     // the exit status, or the signal number
  std::string What; // the uncaught exception's message
};

/// Appends \p Text to \p Out as a JSON string: quoted, escaped, and valid
/// UTF-8 (an invalid byte becomes U+FFFD: an exception message can hold
/// anything).
void appendJsonString(std::string &Out, std::string_view Text);

/// Renders the report, one event a line group; the sites are visited by the
/// caller, under the site table's lock.
class ReportBuilder {
public:
  ReportBuilder(int Pid, const std::string &Program, const EndState &End);
  void addSite(const Site &Entry);
  std::string finish(const std::vector<std::string> &Modules,
                     uint64_t DroppedEvents,
                     const std::vector<std::string> &Problems);

private:
  std::string Head;
  std::string Events;
  bool FirstEvent = true;
};

/// Writes \p Text to \p Path through a temporary file in the same directory;
/// on failure, describes it in \p Error.
bool writeFileAtomically(const std::string &Path, const std::string &Text,
                         std::string &Error);

} // namespace torchtidy::rt

#endif
