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
#include <atomic>
#include <map>
#include <mutex>
#include <thread>

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

/// Sorted by absolute file, offset, check and message: the same output
/// whatever the order files were linted in.
static void sortAndDeduplicate(std::vector<Finding> &Findings) {
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
  sortAndDeduplicate(Findings);
  return Findings;
}

std::vector<Finding> lintInParallel(
    const std::string &Checks, const tooling::CompilationDatabase &Database,
    const std::vector<std::string> &Files, unsigned Jobs,
    llvm::function_ref<void(size_t, size_t, llvm::StringRef)> Progress) {
  std::vector<std::vector<Finding>> PerFile(Files.size());
  std::atomic<size_t> Next{0};
  size_t Done = 0;
  std::mutex ProgressLock;
  auto Worker = [&] {
    LintSession Session(Checks); // clang-tidy contexts are not shareable.
    for (size_t I = Next++; I < Files.size(); I = Next++) {
      PerFile[I] = Session.run(Database, {Files[I]});
      std::lock_guard<std::mutex> Lock(ProgressLock);
      Progress(++Done, Files.size(), Files[I]);
    }
  };
  size_t Threads = std::max<size_t>(1, std::min<size_t>(Jobs, Files.size()));
  std::vector<std::thread> Pool;
  for (size_t T = 1; T < Threads; ++T)
    Pool.emplace_back(Worker);
  Worker();
  for (std::thread &Thread : Pool)
    Thread.join();
  std::vector<Finding> All;
  for (std::vector<Finding> &Findings : PerFile)
    std::move(Findings.begin(), Findings.end(), std::back_inserter(All));
  sortAndDeduplicate(All);
  return All;
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
