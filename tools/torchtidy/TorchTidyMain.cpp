//===--- TorchTidyMain.cpp - The torchtidy command ------------------------===//
//
// For now: --version, --list-checks and --print-plugin-path, so that users
// and scripts can find the clang-tidy module built for this LLVM version.
// Linting files directly (the standalone driver) is not built yet.
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace {

struct CheckInfo {
  const char *Name;
  const char *Level;
  const char *Summary;
};

const CheckInfo Checks[] = {
#define TORCHTIDY_CHECK(Name, Class, Level, Summary) {Name, #Level, Summary},
#include "Checks/CheckCatalogue.def"
};

enum ExitCode { Success = 0, UsageError = 2 };

void printUsage(llvm::raw_ostream &OS) {
  OS << "usage: torchtidy --version | --list-checks | --print-plugin-path\n"
        "\n"
        "  --version            print the torchtidy and LLVM versions\n"
        "  --list-checks        list every check: name, level, summary\n"
        "  --print-plugin-path  print the clang-tidy module for this LLVM:\n"
        "      clang-tidy --load=$(torchtidy --print-plugin-path) "
        "--checks='-*,libtorch-*' file.cpp -- <flags>\n";
}

std::string pluginPath(const char *Argv0) {
  static int Anchor;
  std::string Exe = llvm::sys::fs::getMainExecutable(Argv0, &Anchor);
  // bin/torchtidy next to lib/<module>, in the build tree and installed.
  llvm::SmallString<256> Path(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
  llvm::sys::path::append(Path, "lib", TORCHTIDY_CLANG_TIDY_MODULE);
  return std::string(Path);
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc != 2) {
    if (Argc > 2)
      llvm::errs() << "torchtidy: error: linting files directly is not "
                      "available yet; run clang-tidy with the module printed "
                      "by --print-plugin-path\n";
    printUsage(llvm::errs());
    return UsageError;
  }
  llvm::StringRef Option = Argv[1];
  if (Option == "--help" || Option == "-h") {
    printUsage(llvm::outs());
    return Success;
  }
  if (Option == "--version") {
    llvm::outs() << "torchtidy " TORCHTIDY_VERSION " (LLVM "
                 << TORCHTIDY_LLVM_MAJOR << ")\n";
    return Success;
  }
  if (Option == "--list-checks") {
    for (const CheckInfo &Check : Checks)
      llvm::outs() << llvm::left_justify(Check.Name, 40) << " "
                   << llvm::left_justify(Check.Level, 12) << " "
                   << Check.Summary << "\n";
    return Success;
  }
  if (Option == "--print-plugin-path") {
    std::string Path = pluginPath(Argv[0]);
    if (!llvm::sys::fs::exists(Path)) {
      llvm::errs() << "torchtidy: error: clang-tidy module not found at '"
                   << Path << "'\n";
      return UsageError;
    }
    llvm::outs() << Path << "\n";
    return Success;
  }
  llvm::errs() << "torchtidy: error: unknown argument '" << Option << "'\n";
  printUsage(llvm::errs());
  return UsageError;
}
