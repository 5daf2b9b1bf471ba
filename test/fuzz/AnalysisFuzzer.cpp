//===--- AnalysisFuzzer.cpp - libFuzzer target for the whole lint ---------===//
//
// Feeds each input through every torchtidy check, as `torchtidy --level=style`
// would, against LibTorch's real headers (through the lit tests' PCH):
//  - an input whose first byte is a control character (< 0x20) drives
//    ProgramGenerator: a well-formed program that reaches deep into the
//    device-flow analysis;
//  - any other input is C++ source as it is (the seeds are snippets users
//    write; libFuzzer's mutations break them in every way the parser can
//    meet).
// Beyond "no crash, no sanitizer report, no hang" (libFuzzer's -timeout), it
// checks that no finding is placed inside LibTorch's headers.
//
// Environment: TORCHTIDY_FUZZ_PCH (default: the build's lit PCH),
// TORCHTIDY_FUZZ_TORCH_INCLUDE (default: the configured include directory),
// TORCHTIDY_FUZZ_PRINT=1 prints each input's source and findings.
//
//===----------------------------------------------------------------------===//

#include "Lint/LintSession.h"
#include "ProgramGenerator.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

using namespace torchtidy;

namespace {

std::string fromEnvironment(const char *Name, const char *Default) {
  const char *Value = std::getenv(Name);
  return Value && *Value ? Value : Default;
}

struct FuzzSetup {
  std::string SourcePath;
  std::unique_ptr<clang::tooling::CompilationDatabase> Database;
  bool Print = false;
};

FuzzSetup &setup() {
  static FuzzSetup Setup = [] {
    FuzzSetup S;
    llvm::SmallString<128> Directory;
    if (std::error_code EC =
            llvm::sys::fs::createUniqueDirectory("torchtidy-fuzz", Directory)) {
      std::fprintf(stderr,
                   "torchtidy-fuzz: cannot create a scratch "
                   "directory: %s\n",
                   EC.message().c_str());
      std::exit(2);
    }
    S.SourcePath = (Directory + "/input.cpp").str();
    // libFuzzer ends the process with exit(): leave no scratch behind.
    static std::string ScratchDirectory, ScratchFile;
    ScratchDirectory = Directory.str().str();
    ScratchFile = S.SourcePath;
    std::atexit([] {
      llvm::sys::fs::remove(ScratchFile);
      llvm::sys::fs::remove(ScratchDirectory);
    });
    std::string Pch =
        fromEnvironment("TORCHTIDY_FUZZ_PCH", TORCHTIDY_FUZZ_DEFAULT_PCH);
    if (!llvm::sys::fs::exists(Pch)) {
      std::fprintf(stderr,
                   "torchtidy-fuzz: no precompiled header at '%s' "
                   "(build torchtidy-lit-pch or set "
                   "TORCHTIDY_FUZZ_PCH)\n",
                   Pch.c_str());
      std::exit(2);
    }
    std::vector<std::string> Flags = {
        "-std=c++17",
        "-isystem",
        fromEnvironment("TORCHTIDY_FUZZ_TORCH_INCLUDE",
                        TORCHTIDY_FUZZ_DEFAULT_TORCH_INCLUDE),
        "-include-pch",
        Pch,
        "-ferror-limit=50"};
    S.Database = std::make_unique<clang::tooling::FixedCompilationDatabase>(
        Directory.str(), Flags);
    S.Print = fromEnvironment("TORCHTIDY_FUZZ_PRINT", "") == "1";
    return S;
  }();
  return Setup;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  FuzzSetup &S = setup();
  std::string Source =
      Size && Data[0] < 0x20
          ? fuzz::generateProgram(Data + 1, Size - 1)
          : std::string(reinterpret_cast<const char *>(Data), Size);
  {
    std::error_code EC;
    llvm::raw_fd_ostream File(S.SourcePath, EC);
    if (EC) {
      std::fprintf(stderr, "torchtidy-fuzz: cannot write '%s': %s\n",
                   S.SourcePath.c_str(), EC.message().c_str());
      std::abort();
    }
    File << Source;
  }

  LintRequest Request;
  Request.Level = CheckLevel::Style;
  LintSession Session(Request);
  FileResult Result = Session.lintFile(*S.Database, S.SourcePath);

  if (S.Print) {
    llvm::errs() << "=== input\n" << Source << "=== findings\n";
    for (const Finding &F : Result.Findings)
      llvm::errs() << F.DiagnosticName << " " << F.Message.FilePath << ":"
                   << F.Message.FileOffset << " " << F.Message.Message << "\n";
  }
  // A finding of a check belongs in the user's file; one placed inside
  // LibTorch's headers would be noise in every project.
  for (const Finding &F : Result.Findings)
    if (!isCompilerError(F) && !F.Message.FilePath.empty() &&
        F.Message.FilePath != S.SourcePath) {
      std::fprintf(stderr,
                   "torchtidy-fuzz: %s reported in '%s', not in the "
                   "linted file\n",
                   F.DiagnosticName.c_str(), F.Message.FilePath.c_str());
      std::abort();
    }
  return 0;
}
