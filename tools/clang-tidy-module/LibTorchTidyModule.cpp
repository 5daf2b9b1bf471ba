//===--- LibTorchTidyModule.cpp - The clang-tidy plugin -------------------===//
//
// Registers every check of the catalogue with clang-tidy. Loaded with
//   clang-tidy --load=$(torchtidy --print-plugin-path) --checks='-*,libtorch-*'
//
//===----------------------------------------------------------------------===//

#include "Checks/GraphRetainingAccumulationCheck.h"
#include "Checks/HardcodedDeviceCheck.h"
#include "Checks/HostSyncInLoopCheck.h"
#include "Checks/LoopInvariantTransferCheck.h"
#include "Checks/MissingTargetMigrationCheck.h"
#include "Checks/MixedDeviceOperandsCheck.h"
#include "Checks/NonBlockingWithoutPinnedMemoryCheck.h"
#include "Checks/TransferInDatasetCheck.h"
#include "Checks/UncheckedCudaCheck.h"
#include "Checks/UnregisteredModuleMemberCheck.h"

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
