//===--- CheckTable.h - The catalogue as data for the command ---*- C++ -*-===//

#ifndef TORCHTIDY_TOOLS_TORCHTIDY_CHECKTABLE_H
#define TORCHTIDY_TOOLS_TORCHTIDY_CHECKTABLE_H

namespace torchtidy {

/// One row of Checks/CheckCatalogue.def, for listings and SARIF rules.
struct CheckInfo {
  const char *Name;
  const char *Level;
  const char *Summary;
};

inline constexpr CheckInfo AllChecks[] = {
#define TORCHTIDY_CHECK(Name, Class, Level, Summary) {Name, #Level, Summary},
#include "Checks/CheckCatalogue.def"
};

} // namespace torchtidy

#endif // TORCHTIDY_TOOLS_TORCHTIDY_CHECKTABLE_H
