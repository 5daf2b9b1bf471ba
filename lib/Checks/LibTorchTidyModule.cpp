//===--- LibTorchTidyModule.cpp - Registers the checks --------------------===//
//
// Registers every check of the catalogue with clang-tidy's module registry.
// Every front-end links it: the clang-tidy module
//   clang-tidy --load=$(torchtidy --print-plugin-path) --checks='-*,libtorch-*'
// the compiler plugin, the torchtidy command and the fuzzer.
//
//===----------------------------------------------------------------------===//

// #include "Checks/<Class>.h" for each row of the catalogue, written by
// lib/CMakeLists.txt when it reads the catalogue: a new check needs no
// include here.
#include "CatalogueCheckHeaders.inc"

#include "clang-tidy/ClangTidyModule.h"
#include "llvm/Config/llvm-config.h"
#if LLVM_VERSION_MAJOR < 22 // Merged into ClangTidyModule.h in LLVM 22.
#include "clang-tidy/ClangTidyModuleRegistry.h"
#endif

namespace torchtidy {
namespace {

class LibTorchTidyModule : public clang::tidy::ClangTidyModule {
public:
  void
  addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
#define TORCHTIDY_CHECK(Name, Class, Level, RuntimeEvent, Summary)             \
  Factories.registerCheck<Class>(Name);
#include "Checks/CheckCatalogue.def"
  }
};

} // namespace
} // namespace torchtidy

static clang::tidy::ClangTidyModuleRegistry::Add<torchtidy::LibTorchTidyModule>
    X("torchtidy-module", "Device-placement checks for LibTorch code.");
