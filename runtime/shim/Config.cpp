//===- Config.cpp - The shim's environment variables ----------------------===//

#include "Config.h"
#include "Problems.h"

#include <cstdlib>
#include <limits.h>
#include <unistd.h>

namespace torchtidy::rt {

namespace {
/// Parses a positive decimal integer, digits only: no sign, no space, no
/// suffix, no overflow.
bool parsePositive(const char *Text, uint64_t &Value) {
  if (!Text || !*Text)
    return false;
  uint64_t Result = 0;
  for (const char *C = Text; *C; ++C) {
    if (*C < '0' || *C > '9')
      return false;
    unsigned Digit = static_cast<unsigned>(*C - '0');
    if (Result > (UINT64_MAX - Digit) / 10)
      return false;
    Result = Result * 10 + Digit;
  }
  if (Result == 0)
    return false;
  Value = Result;
  return true;
}

/// Reads \p Name as a positive integer into \p Value, which keeps its default
/// when the variable is unset or bad.
void readPositive(const char *Name, uint64_t &Value) {
  const char *Text = std::getenv(Name);
  if (!Text)
    return;
  uint64_t Parsed;
  if (parsePositive(Text, Parsed)) {
    Value = Parsed;
    return;
  }
  reportProblem(std::string(Name) + "='" + Text +
                "' is not a positive integer; the default, " +
                std::to_string(Value) + ", is used");
}

std::string absolutePath(const std::string &Path) {
  if (Path.empty() || Path[0] == '/')
    return Path;
  char Cwd[PATH_MAX];
  if (!::getcwd(Cwd, sizeof(Cwd)))
    return Path; // the directory is gone: keep the relative path
  std::string Dir = Cwd;
  if (Dir.back() != '/')
    Dir += '/';
  return Dir + Path;
}
} // namespace

Config readConfig() {
  Config Result;
  std::string Report = "torchtidy-runtime.json";
  if (const char *Text = std::getenv("TORCHTIDY_REPORT")) {
    if (*Text)
      Report = Text;
    else
      reportProblem("TORCHTIDY_REPORT is empty; the default, " + Report +
                    ", is used");
  }
  Result.ReportPath = absolutePath(Report);

  readPositive("TORCHTIDY_MAX_SITES", Result.MaxSites);

  uint64_t Depth = Result.StackDepth;
  readPositive("TORCHTIDY_STACK_DEPTH", Depth);
  if (Depth > kMaxStackDepth) {
    reportProblem("TORCHTIDY_STACK_DEPTH=" + std::to_string(Depth) +
                  " is more than " + std::to_string(kMaxStackDepth) + "; " +
                  std::to_string(kMaxStackDepth) + " is used");
    Depth = kMaxStackDepth;
  }
  Result.StackDepth = static_cast<unsigned>(Depth);

  readPositive("TORCHTIDY_REPORT_PID", Result.ReportingProcess);
  return Result;
}

} // namespace torchtidy::rt
