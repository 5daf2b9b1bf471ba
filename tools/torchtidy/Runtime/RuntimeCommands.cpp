//===--- RuntimeCommands.cpp - torchtidy run, validate, replay ------------===//

#include "RuntimeCommands.h"
#include "CommandArguments.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace torchtidy {

bool isRuntimeCommand(StringRef Name) {
  return Name == "run" || Name == "validate" || Name == "replay";
}

RuntimeInstallation selectRuntime(const CommandArguments &Arguments,
                                  const RuntimeInstallation &Installed) {
  std::string Dir;
  std::string GivenAs;
  if (std::optional<std::string> Given = Arguments.value("--runtime-dir")) {
    Dir = *Given;
    GivenAs = "--runtime-dir '" + Dir + "'";
  } else if (std::optional<std::string> FromEnvironment =
                 sys::Process::GetEnv("TORCHTIDY_RUNTIME_DIR");
             FromEnvironment && !FromEnvironment->empty()) {
    Dir = *FromEnvironment;
    GivenAs = "TORCHTIDY_RUNTIME_DIR='" + Dir + "'";
  } else {
    return Installed;
  }
  RuntimeInstallation Runtime;
  // Absolute: the program's children inherit LD_PRELOAD, maybe elsewhere.
  SmallString<256> Root(Dir);
  sys::fs::make_absolute(Root);
  SmallString<256> Path(Root);
  sys::path::append(Path, "lib", "libtorchtidy_rt.so");
  Runtime.Shim = std::string(Path);
  Path = Root;
  sys::path::append(Path, "bin", "torchtidy-replay");
  Runtime.Replay = std::string(Path);
  Runtime.MissingHint = GivenAs + " is not a build of runtime/ (cmake -S "
                                  "runtime -B <dir>, against the program's "
                                  "LibTorch)";
  return Runtime;
}

int runtimeCommandError(const Twine &Reason) {
  errs() << "torchtidy: error: " << Reason << "\n";
  return 2;
}

int runtimeCommandMain(ArrayRef<const char *> Args,
                       const RuntimeInstallation &Installation) {
  StringRef Name = Args.front();
  ArrayRef<const char *> Rest = Args.drop_front();
  if (!Rest.empty() && (StringRef(Rest.front()) == "--help" ||
                        StringRef(Rest.front()) == "-h")) {
    outs() << "See docs/runtime.md (installed under share/doc/torchtidy).\n"
           << "  torchtidy run [--report <file>] [--runtime-dir <dir>] -- "
              "<program> [<args>...]\n"
           << "  torchtidy validate --findings <torchtidy json> --runtime "
              "<report> [--runtime <report>...]\n"
           << "  torchtidy replay --findings <torchtidy json> [--device "
              "auto|cuda|meta|cpu] [--iterations <n>] [--runtime-dir <dir>]\n"
           << "--runtime-dir (or $TORCHTIDY_RUNTIME_DIR): a build of runtime/ "
              "against the program's LibTorch\n";
    return 0;
  }
  if (Name == "run")
    return runCommand(Rest, Installation);
  if (Name == "validate")
    return validateCommand(Rest);
  return replayCommand(Rest, Installation);
}

} // namespace torchtidy
