//===--- LintResult.cpp - What linting a file yields ----------------------===//

#include "LintResult.h"

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>
#include <tuple>

using namespace clang;

namespace torchtidy {

bool isCompilerError(const Finding &F) {
  return F.DiagnosticName == "clang-diagnostic-error";
}

bool isMissingIncludeError(const Finding &F) {
  // err_pp_file_not_found, a fatal error; its non-fatal sibling suggests a
  // name ("..., did you mean '...'?") and is not this.
  return isCompilerError(F) &&
         llvm::StringRef(F.Message.Message).ends_with("' file not found");
}

std::string absolutePath(const Finding &F, llvm::StringRef Path) {
  if (Path.empty() || llvm::sys::path::is_absolute(Path))
    return Path.str();
  llvm::SmallString<256> Absolute(F.BuildDirectory);
  llvm::sys::path::append(Absolute, Path);
  llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
  return std::string(Absolute);
}

void sortAndDeduplicate(std::vector<Finding> &Findings) {
  auto Key = [](const Finding &F) {
    return std::make_tuple(absolutePath(F, F.Message.FilePath),
                           F.Message.FileOffset, F.DiagnosticName,
                           F.Message.Message);
  };
  std::stable_sort(
      Findings.begin(), Findings.end(),
      [&](const Finding &A, const Finding &B) { return Key(A) < Key(B); });
  Findings.erase(std::unique(Findings.begin(), Findings.end(),
                             [&](const Finding &A, const Finding &B) {
                               return Key(A) == Key(B);
                             }),
                 Findings.end());
}

unsigned applyFixes(const std::vector<Finding> &Findings) {
  std::map<std::string, tooling::Replacements> PerFile;
  unsigned Applied = 0;
  for (const Finding &F : Findings) {
    // Take all of a finding's edits or none of them.
    std::map<std::string, tooling::Replacements> Candidate = PerFile;
    bool Conflict = false;
    bool Any = false;
    for (const auto &[File, Replacements] : F.Message.Fix)
      for (const tooling::Replacement &R : Replacements) {
        Any = true;
        std::string Path = absolutePath(F, R.getFilePath());
        tooling::Replacement Absolute(Path, R.getOffset(), R.getLength(),
                                      R.getReplacementText());
        if (llvm::Error E = Candidate[Path].add(Absolute)) {
          llvm::consumeError(std::move(E));
          Conflict = true;
        }
      }
    if (!Any || Conflict)
      continue;
    PerFile = std::move(Candidate);
    ++Applied;
  }
  for (const auto &[File, Replacements] : PerFile) {
    auto Buffer = llvm::MemoryBuffer::getFile(File);
    if (!Buffer)
      continue;
    llvm::Expected<std::string> Fixed =
        tooling::applyAllReplacements((*Buffer)->getBuffer(), Replacements);
    if (!Fixed) {
      llvm::consumeError(Fixed.takeError());
      continue;
    }
    std::error_code EC;
    llvm::raw_fd_ostream Out(File, EC);
    if (!EC)
      Out << *Fixed;
  }
  return Applied;
}

} // namespace torchtidy
