//===--- CheckSelection.cpp - Which checks a front-end runs ---------------===//

#include "Frontend/CheckSelection.h"
#include "Frontend/CheckTable.h"

#include "llvm/ADT/StringSwitch.h"

using namespace clang::tidy;

namespace torchtidy {

std::optional<CheckLevel> parseCheckLevel(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<CheckLevel>>(Name)
      .Case("bug", CheckLevel::Bug)
      .Case("performance", CheckLevel::Performance)
      .Case("style", CheckLevel::Style)
      .Default(std::nullopt);
}

std::string checkGlobsForLevel(CheckLevel Level) {
  std::string Globs = "-*";
  for (const CheckInfo &Check : AllChecks)
    if (*parseCheckLevel(Check.Level) <= Level)
      Globs += std::string(",") + Check.Name;
  return Globs;
}

std::unique_ptr<ClangTidyOptionsProvider>
makeOptionsProvider(std::optional<CheckLevel> ExplicitLevel,
                    llvm::StringRef Checks, llvm::StringRef ProjectFactsIndex) {
  ClangTidyOptions Defaults = ClangTidyOptions::getDefaults();
  Defaults.Checks = checkGlobsForLevel(CheckLevel::Bug);
  // A bug in the project's own header is a finding, whatever the LLVM
  // version's default (clang-tidy 19 hides header findings, 22 shows them);
  // system headers are never reported. A .clang-tidy HeaderFilterRegex wins.
  Defaults.HeaderFilterRegex = ".*";
  ClangTidyOptions Overrides;
  std::string Globs;
  if (ExplicitLevel)
    Globs += checkGlobsForLevel(*ExplicitLevel);
  if (!Checks.empty())
    Globs += "," + Checks.str();
  Overrides.Checks = Globs + ",-clang-analyzer-*,-clang-diagnostic-*";
  Overrides.CheckOptions["ProjectFacts"] =
      ClangTidyOptions::ClangTidyValue(ProjectFactsIndex);
  return std::make_unique<FileOptionsProvider>(ClangTidyGlobalOptions(),
                                               Defaults, Overrides);
}

} // namespace torchtidy
