//===--- StaticFindings.h - Findings read back from --format=json -*- C++
//-*-===//
//
// The runtime commands (validate, replay) take the static findings as
// torchtidy wrote them with --format=json.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_TOOLS_TORCHTIDY_STATICFINDINGS_H
#define TORCHTIDY_TOOLS_TORCHTIDY_STATICFINDINGS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace torchtidy {

struct StaticFinding {
  std::string Check;
  std::string Level; // bug, performance, style (or error: a compiler error)
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  std::string Message;

  /// "file:line:column check".
  std::string describe() const;
};

llvm::Expected<std::vector<StaticFinding>>
loadStaticFindings(llvm::StringRef Path);

/// Whether two paths name the same file: equal once made real, or, for
/// paths recorded in different checkouts, with the same file name in a
/// directory of the same name.
bool isSameFile(llvm::StringRef A, llvm::StringRef B);

} // namespace torchtidy

#endif // TORCHTIDY_TOOLS_TORCHTIDY_STATICFINDINGS_H
