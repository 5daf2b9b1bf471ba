//===--- CheckTable.h - The check catalogue as data -------------*- C++ -*-===//

#ifndef TORCHTIDY_FRONTEND_CHECKTABLE_H
#define TORCHTIDY_FRONTEND_CHECKTABLE_H

namespace torchtidy {

/// One row of Checks/CheckCatalogue.def, for listings, SARIF rules and
/// level selection.
struct CheckInfo {
  const char *Name;
  const char *Level;
  const char *Summary;
};

inline constexpr CheckInfo AllChecks[] = {
#define TORCHTIDY_CHECK(Name, Class, Level, RuntimeEvent, Summary)             \
  {Name, #Level, Summary},
#include "Checks/CheckCatalogue.def"
};

} // namespace torchtidy

#endif // TORCHTIDY_FRONTEND_CHECKTABLE_H
