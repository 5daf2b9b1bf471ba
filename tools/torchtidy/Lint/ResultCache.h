//===--- ResultCache.h - Findings kept across runs --------------*- C++ -*-===//
//
// An unchanged project re-lints from the cache. A file's entry is keyed by
// what is not file content (tool build, compile command, clang-tidy options
// in force) and lists every file its translation unit read with a content
// hash: the entry holds while the preprocessed translation unit would be the
// same. Stat data (size, mtime) spares re-hashing unchanged files, as git and
// ccache do. A result with compiler errors is kept too: a header an include
// did not find is watched for through the folders where it would appear.
// Like ccache's direct mode, a new header that would shadow one already on
// the include path is not noticed (docs/README.md says so).
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_TOOLS_TORCHTIDY_RESULTCACHE_H
#define TORCHTIDY_TOOLS_TORCHTIDY_RESULTCACHE_H

#include "LintResult.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Chrono.h"

#include <atomic>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace torchtidy {

class ResultCache {
public:
  /// ToolIdentity changes whenever the checks may: version and build.
  ResultCache(std::string Directory, std::string ToolIdentity);

  /// The entry name for a file's compile commands and options text.
  std::string keyFor(llvm::ArrayRef<clang::tooling::CompileCommand> Commands,
                     llvm::StringRef OptionsText) const;

  /// The cached findings and project facts, if the entry exists and none of
  /// its inputs changed (Inputs is left empty).
  std::optional<FileResult> lookup(llvm::StringRef Key);

  /// Records a result computed from inputs read no earlier than LintStart;
  /// an input modified since then (edited during the run) is not cached.
  void store(llvm::StringRef Key, const FileResult &Result,
             llvm::sys::TimePoint<> LintStart);

  unsigned hits() const { return Hits; }
  unsigned misses() const { return Misses; }
  /// Why an entry could not be written, if one could not (first reason).
  std::string writeError() const;

private:
  std::string Directory;
  std::string ToolIdentity;
  std::atomic<unsigned> Hits{0}, Misses{0};
  mutable std::mutex ErrorLock;
  std::string FirstWriteError;
};

} // namespace torchtidy

#endif // TORCHTIDY_TOOLS_TORCHTIDY_RESULTCACHE_H
