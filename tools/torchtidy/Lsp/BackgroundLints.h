//===--- BackgroundLints.h - The editor's lints, off its thread -*- C++ -*-===//
//
// `torchtidy lsp` lints a file by running the torchtidy command on it, in a
// child process: the command line's cache, shared LibTorch parse and index
// are then the editor's too, a lint that is no longer wanted is stopped by
// ending its process (clang cannot be interrupted in the middle of a parse),
// and a file that crashes the lint costs one diagnostic, not the server.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_TOOLS_TORCHTIDY_LSP_BACKGROUNDLINTS_H
#define TORCHTIDY_TOOLS_TORCHTIDY_LSP_BACKGROUNDLINTS_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Program.h"

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace torchtidy {

/// What a lint's process printed and how it ended.
struct LintOutput {
  int ExitCode = -1;  ///< -1: it did not end normally (a crash, a signal).
  std::string Stdout; ///< The findings, as --format=json writes them.
  std::string Stderr;
};

/// Runs lints, at most Jobs at once, each in a process of its own; a file
/// asked for again while its lint waits or runs gets only the new lint.
class BackgroundLints {
public:
  /// Called on a worker thread with a lint's output, unless a newer lint of
  /// the same file replaced it.
  using Completion =
      std::function<void(const std::string &File, const LintOutput &Output)>;

  BackgroundLints(unsigned Jobs, Completion Done);
  /// Stops what runs and joins the workers.
  ~BackgroundLints();

  /// Lints File with Command (argv; Command[0] is the program), replacing
  /// a lint of File that waits or runs; true if one ran and was ended.
  bool lint(const std::string &File, std::vector<std::string> Command);
  /// Drops File's waiting lint and ends its running one.
  void cancel(llvm::StringRef File);
  /// Ends every lint and lets the workers stop.
  void stop();

private:
  struct Job {
    std::string File;
    std::vector<std::string> Command;
    unsigned Generation;
  };
  void work();
  LintOutput runProcess(const Job &Item);
  /// Ends the process linting File, if one runs (under Lock); whether one
  /// did.
  bool endRunningLint(llvm::StringRef File);

  Completion Done;
  std::mutex Lock;
  std::condition_variable Wakeup;
  std::deque<Job> Waiting;
  /// The newest lint asked for each file: a result of an older one is stale.
  llvm::StringMap<unsigned> NewestGeneration;
  /// The process linting each file, while it runs.
  llvm::StringMap<llvm::sys::procid_t> Running;
  unsigned NextGeneration = 0;
  bool Stopping = false;
  std::vector<std::thread> Workers;
};

} // namespace torchtidy

#endif // TORCHTIDY_TOOLS_TORCHTIDY_LSP_BACKGROUNDLINTS_H
