//===--- CommandArguments.h - Options of the runtime commands ---*- C++ -*-===//
//
// The runtime commands take a few options each; parsing them here, rather
// than with llvm::cl, keeps them apart from the lint options and gives their
// errors the same one-line form.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_TOOLS_TORCHTIDY_COMMANDARGUMENTS_H
#define TORCHTIDY_TOOLS_TORCHTIDY_COMMANDARGUMENTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace torchtidy {

/// `--name value` or `--name=value` for the options that take a value,
/// `--name` for flags, and everything after `--` verbatim. `--` never is a
/// value (`--runtime-dir -- prog` lacks one); `--name=--` gives it.
class CommandArguments {
public:
  CommandArguments(llvm::ArrayRef<const char *> Args,
                   llvm::ArrayRef<llvm::StringRef> ValueOptions,
                   llvm::ArrayRef<llvm::StringRef> Flags);

  /// What is wrong with the arguments, if anything: an unknown option, a
  /// missing value, a stray argument.
  const std::optional<std::string> &error() const { return Error; }

  /// Every value given to a repeatable option, in order.
  std::vector<std::string> values(llvm::StringRef Name) const;
  /// The last value given to an option.
  std::optional<std::string> value(llvm::StringRef Name) const;
  bool flag(llvm::StringRef Name) const;
  const std::vector<std::string> &afterDashDash() const {
    return AfterDashDash;
  }

private:
  llvm::StringMap<std::vector<std::string>> Values;
  std::vector<std::string> AfterDashDash;
  std::optional<std::string> Error;
};

} // namespace torchtidy

#endif // TORCHTIDY_TOOLS_TORCHTIDY_COMMANDARGUMENTS_H
