//===--- LintRun.cpp - torchtidy over a compilation database --------------===//

#include "LintRun.h"

#include "clang-tidy/ClangTidy.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>

using namespace clang;
using namespace clang::tidy;

namespace torchtidy {

static std::unique_ptr<ClangTidyOptionsProvider>
makeOptionsProvider(const std::string &Checks) {
  ClangTidyOptions Defaults = ClangTidyOptions::getDefaults();
  Defaults.Checks = "-*,libtorch-*";
  // The user's globs come last; clang's own checks never run in torchtidy
  // (compiler errors are reported regardless).
  ClangTidyOptions Overrides;
  std::string Tail = Checks.empty() ? "" : "," + Checks;
  Overrides.Checks = Tail + ",-clang-analyzer-*,-clang-diagnostic-*";
  return std::make_unique<FileOptionsProvider>(ClangTidyGlobalOptions(),
                                               Defaults, Overrides);
}

LintSession::LintSession(const std::string &Checks)
    : Context(std::make_unique<ClangTidyContext>(makeOptionsProvider(Checks))) {
}

LintSession::~LintSession() = default;

std::vector<std::string> LintSession::enabledChecks(llvm::StringRef File) {
  ClangTidyOptions Options = Context->getOptionsForFile(File);
#if LLVM_VERSION_MAJOR >= 22
  return getCheckNames(Options, /*AllowEnablingAnalyzerAlphaCheckers=*/false,
                       /*ExperimentalCustomChecks=*/false);
#else
  return getCheckNames(Options, /*AllowEnablingAnalyzerAlphaCheckers=*/false);
#endif
}

bool isCompilerError(const Finding &F) {
  return F.DiagnosticName == "clang-diagnostic-error";
}

std::string absolutePath(const Finding &F, llvm::StringRef Path) {
  if (Path.empty() || llvm::sys::path::is_absolute(Path))
    return Path.str();
  llvm::SmallString<256> Absolute(F.BuildDirectory);
  llvm::sys::path::append(Absolute, Path);
  llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
  return std::string(Absolute);
}

std::vector<Finding>
LintSession::run(const tooling::CompilationDatabase &Database,
                 const std::vector<std::string> &Files) {
  auto BaseFS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::getRealFileSystem());
  std::vector<Finding> Findings =
#if LLVM_VERSION_MAJOR >= 22
      runClangTidy(*Context, Database, Files, BaseFS, /*ApplyAnyFix=*/false,
                   /*EnableCheckProfile=*/false, "", /*Quiet=*/true);
#else
      runClangTidy(*Context, Database, Files, BaseFS, /*ApplyAnyFix=*/false);
#endif
  auto Key = [](const Finding &F) {
    return std::make_tuple(F.Message.FilePath, F.Message.FileOffset,
                           F.DiagnosticName, F.Message.Message);
  };
  std::stable_sort(
      Findings.begin(), Findings.end(),
      [&](const Finding &A, const Finding &B) { return Key(A) < Key(B); });
  Findings.erase(std::unique(Findings.begin(), Findings.end(),
                             [&](const Finding &A, const Finding &B) {
                               return Key(A) == Key(B);
                             }),
                 Findings.end());
  return Findings;
}

void LintSession::printText(const std::vector<Finding> &Findings) {
  unsigned WarningsAsErrors = 0;
  handleErrors(Findings, *Context, FB_NoFix, WarningsAsErrors,
               llvm::vfs::getRealFileSystem());
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
