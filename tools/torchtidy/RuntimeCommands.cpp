//===--- RuntimeCommands.cpp - torchtidy run, validate, replay ------------===//

#include "RuntimeCommands.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace torchtidy {

bool isRuntimeCommand(StringRef Name) {
  return Name == "run" || Name == "validate" || Name == "replay";
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
           << "  torchtidy run [--report <file>] -- <program> [<args>...]\n"
           << "  torchtidy validate --findings <torchtidy json> --runtime "
              "<report> [--runtime <report>...]\n"
           << "  torchtidy replay --findings <torchtidy json> [--device "
              "auto|cuda|meta|cpu] [--iterations <n>]\n";
    return 0;
  }
  if (Name == "run")
    return runCommand(Rest, Installation);
  if (Name == "validate")
    return validateCommand(Rest);
  return replayCommand(Rest, Installation);
}

} // namespace torchtidy
