//===- Init.cpp - The shim's load-time constructor ------------------------===//
//
// Preloaded with LD_PRELOAD, the shim sets itself up before the program's
// main runs: LibTorch, a dependency of the shim, is initialized by then.
//
//===----------------------------------------------------------------------===//

#include "Lifecycle.h"
#include "Observer.h"
#include "Problems.h"
#include "Shim.h"
#include "StackCapture.h"

#include <exception>

namespace {
__attribute__((constructor)) void initTorchtidyRuntime() {
  using namespace torchtidy::rt;
  try {
    initStackCapture();
    Shim::create();
    // A program started by the one torchtidy runs: it costs nothing.
    if (!Shim::get()->active())
      return;
    installLifecycleHooks();
    registerObserver();
  } catch (const std::exception &Error) {
    warn(std::string("disabled: ") + Error.what());
  } catch (...) {
    warn("disabled: initialization failed");
  }
}
} // namespace
