//===--- RuntimeCommands.h - torchtidy run, validate, replay ----*- C++ -*-===//
//
// The runtime checker's commands (docs/runtime.md):
//   torchtidy run [--report F] -- <program> [args]
//   torchtidy validate --findings <static.json> --runtime <report>...
//   torchtidy replay --findings <static.json> [--device D] [--iterations N]
// The LibTorch side (the shim, the replay program) never links LLVM; these
// commands launch it and read what it writes.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_TOOLS_TORCHTIDY_RUNTIMECOMMANDS_H
#define TORCHTIDY_TOOLS_TORCHTIDY_RUNTIMECOMMANDS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace torchtidy {

/// Where the runtime side is: installed next to torchtidy, or a build of
/// runtime/ against the LibTorch a program uses (`--runtime-dir`).
struct RuntimeInstallation {
  std::string Shim;   // lib/libtorchtidy_rt.so
  std::string Replay; // bin/torchtidy-replay
  /// What to tell the user when a file is not there.
  std::string MissingHint;
};

class CommandArguments;

/// The runtime side `run` and `replay` use: `--runtime-dir <dir>`, else
/// $TORCHTIDY_RUNTIME_DIR, names a build of runtime/ (its lib/ and bin/);
/// else the one installed with torchtidy. The shim and the replay program
/// must be built against the LibTorch the program runs with: a torchtidy
/// built against one LibTorch checks programs of another this way.
RuntimeInstallation selectRuntime(const CommandArguments &Arguments,
                                  const RuntimeInstallation &Installed);

/// Whether Name is one of the runtime commands.
bool isRuntimeCommand(llvm::StringRef Name);

/// Runs `torchtidy <Args[0]> <Args[1..]>` and returns its exit code.
int runtimeCommandMain(llvm::ArrayRef<const char *> Args,
                       const RuntimeInstallation &Installation);

// The commands themselves, each given the arguments after its name.
int runCommand(llvm::ArrayRef<const char *> Args,
               const RuntimeInstallation &Installation);
int validateCommand(llvm::ArrayRef<const char *> Args);
int replayCommand(llvm::ArrayRef<const char *> Args,
                  const RuntimeInstallation &Installation);

/// "torchtidy: error: <Reason>" on stderr; returns the usage-error exit code.
int runtimeCommandError(const llvm::Twine &Reason);

} // namespace torchtidy

#endif // TORCHTIDY_TOOLS_TORCHTIDY_RUNTIMECOMMANDS_H
