//===--- CheckSelection.h - Which checks a front-end runs -------*- C++ -*-===//
//
// Every front-end that owns its clang-tidy context (the torchtidy command, the
// compiler plugin) picks checks the same way: the checks of a level, then any
// .clang-tidy file, then the user's --checks globs. clang-tidy users pick
// checks themselves; docs/README.md gives them the globs of each level.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_FRONTEND_CHECKSELECTION_H
#define TORCHTIDY_FRONTEND_CHECKSELECTION_H

#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>

namespace torchtidy {

/// Levels are cumulative, as clazy's are: `performance` runs the bug checks
/// too, `style` runs everything.
enum class CheckLevel { Bug, Performance, Style };

std::optional<CheckLevel> parseCheckLevel(llvm::StringRef Name);

/// "-*,<every check at Level or below>", a clang-tidy Checks value.
std::string checkGlobsForLevel(CheckLevel Level);

/// Options for clang-tidy's engine. DefaultLevel sets the defaults, which a
/// .clang-tidy file may override; an ExplicitLevel (given on the command
/// line) and then Checks are applied after .clang-tidy. clang's own
/// diagnostics and analyzer checks never run: torchtidy reports only its
/// checks (compiler errors are reported regardless). Findings in the
/// project's own headers are reported on every LLVM version unless
/// .clang-tidy sets HeaderFilterRegex. ProjectFactsIndex is the checks'
/// ProjectFacts option (DeviceFlowCheck.h), whatever .clang-tidy says: the
/// torchtidy command gives the facts to the analysis itself.
std::unique_ptr<clang::tidy::ClangTidyOptionsProvider>
makeOptionsProvider(std::optional<CheckLevel> ExplicitLevel,
                    llvm::StringRef Checks,
                    llvm::StringRef ProjectFactsIndex = "");

} // namespace torchtidy

#endif // TORCHTIDY_FRONTEND_CHECKSELECTION_H
