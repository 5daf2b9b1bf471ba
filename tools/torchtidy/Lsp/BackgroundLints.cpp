//===--- BackgroundLints.cpp - The editor's lints, off its thread ---------===//

#include "BackgroundLints.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <signal.h>
#include <sys/wait.h>

namespace torchtidy {

BackgroundLints::BackgroundLints(unsigned Jobs, Completion Done)
    : Done(std::move(Done)) {
  for (unsigned I = 0; I < std::max(1u, Jobs); ++I)
    Workers.emplace_back([this] { work(); });
}

BackgroundLints::~BackgroundLints() {
  stop();
  for (std::thread &Worker : Workers)
    Worker.join();
}

bool BackgroundLints::lint(const std::string &File,
                           std::vector<std::string> Command) {
  std::lock_guard<std::mutex> Guard(Lock);
  if (Stopping)
    return false;
  unsigned Generation = ++NextGeneration;
  NewestGeneration[File] = Generation;
  // A lint of the file's older text is wasted work: its result would be
  // dropped anyway.
  llvm::erase_if(Waiting, [&](const Job &Item) { return Item.File == File; });
  bool Ended = endRunningLint(File);
  Waiting.push_back({File, std::move(Command), Generation});
  Wakeup.notify_one();
  return Ended;
}

void BackgroundLints::cancel(llvm::StringRef File) {
  std::lock_guard<std::mutex> Guard(Lock);
  NewestGeneration[File] = ++NextGeneration;
  llvm::erase_if(Waiting, [&](const Job &Item) { return Item.File == File; });
  endRunningLint(File);
}

void BackgroundLints::stop() {
  std::lock_guard<std::mutex> Guard(Lock);
  Stopping = true;
  Waiting.clear();
  for (const auto &Entry : Running)
    ::kill(Entry.second, SIGKILL);
  Wakeup.notify_all();
}

bool BackgroundLints::endRunningLint(llvm::StringRef File) {
  // The process is in Running until it has exited and before it is reaped
  // (runProcess), so its pid cannot belong to another process yet.
  auto It = Running.find(File);
  if (It == Running.end())
    return false;
  ::kill(It->second, SIGKILL);
  return true;
}

void BackgroundLints::work() {
  for (;;) {
    Job Item;
    {
      std::unique_lock<std::mutex> Guard(Lock);
      Wakeup.wait(Guard, [&] { return Stopping || !Waiting.empty(); });
      if (Stopping)
        return;
      Item = std::move(Waiting.front());
      Waiting.pop_front();
    }
    LintOutput Output = runProcess(Item);
    {
      std::lock_guard<std::mutex> Guard(Lock);
      if (Stopping || NewestGeneration.lookup(Item.File) != Item.Generation)
        continue;
    }
    Done(Item.File, Output);
  }
}

LintOutput BackgroundLints::runProcess(const Job &Item) {
  LintOutput Output;
  llvm::SmallString<128> StdoutPath, StderrPath;
  if (llvm::sys::fs::createTemporaryFile("torchtidy-lsp", "json", StdoutPath) ||
      llvm::sys::fs::createTemporaryFile("torchtidy-lsp", "err", StderrPath)) {
    Output.Stderr = "torchtidy: error: cannot create a temporary file";
    return Output;
  }
  std::vector<llvm::StringRef> Argv(Item.Command.begin(), Item.Command.end());
  // Standard input is the editor's channel: the lint gets none.
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""),
                                                llvm::StringRef(StdoutPath),
                                                llvm::StringRef(StderrPath)};
  std::string Error;
  bool ExecutionFailed = false;
  llvm::sys::ProcessInfo Process;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    if (Stopping || NewestGeneration.lookup(Item.File) != Item.Generation) {
      llvm::sys::fs::remove(StdoutPath);
      llvm::sys::fs::remove(StderrPath);
      return Output;
    }
    // Started under the lock, so that a cancel either sees the process in
    // Running or comes before it and was seen above.
    Process = llvm::sys::ExecuteNoWait(Argv.front(), Argv, std::nullopt,
                                       Redirects, 0, &Error, &ExecutionFailed);
    if (!ExecutionFailed && Process.Pid > 0)
      Running[Item.File] = Process.Pid;
  }
  if (ExecutionFailed || Process.Pid <= 0) {
    Output.Stderr =
        "torchtidy: error: cannot run '" + Item.Command.front() + "': " + Error;
  } else {
    // Waits for the exit without reaping the process, then leaves Running,
    // then reaps: endRunningLint never signals a pid the system gave to a
    // newer process.
    siginfo_t Info;
    while (::waitid(P_PID, Process.Pid, &Info, WEXITED | WNOWAIT) != 0 &&
           errno == EINTR) {
    }
    {
      std::lock_guard<std::mutex> Guard(Lock);
      // A newer lint of the file may have started while this one ended.
      auto It = Running.find(Item.File);
      if (It != Running.end() && It->second == Process.Pid)
        Running.erase(It);
    }
    llvm::sys::ProcessInfo Ended =
        llvm::sys::Wait(Process, std::nullopt, &Error);
    Output.ExitCode = Ended.ReturnCode >= 0 ? Ended.ReturnCode : -1;
    if (auto Buffer = llvm::MemoryBuffer::getFile(StdoutPath))
      Output.Stdout = (*Buffer)->getBuffer().str();
    if (auto Buffer = llvm::MemoryBuffer::getFile(StderrPath))
      Output.Stderr = (*Buffer)->getBuffer().str();
    if (Output.ExitCode < 0 && !Error.empty())
      Output.Stderr += Error;
  }
  llvm::sys::fs::remove(StdoutPath);
  llvm::sys::fs::remove(StderrPath);
  return Output;
}

} // namespace torchtidy
