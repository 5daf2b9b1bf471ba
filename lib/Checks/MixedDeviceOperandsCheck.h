//===--- MixedDeviceOperandsCheck.h - libtorch-mixed-device-operands -*- C++
//-*-===//
//
// An op, function or module call whose tensor operands are on different
// devices on some path: "Expected all tensors to be on the same device".
// Sites explained by a missing migration belong to
// libtorch-missing-target-migration (one site, one finding) unless that check
// is disabled.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_CHECKS_MIXEDDEVICEOPERANDSCHECK_H
#define TORCHTIDY_CHECKS_MIXEDDEVICEOPERANDSCHECK_H

#include "Checks/DeviceFlowCheck.h"

namespace torchtidy {

class MixedDeviceOperandsCheck : public DeviceFlowCheck {
public:
  MixedDeviceOperandsCheck(llvm::StringRef Name,
                           clang::tidy::ClangTidyContext *Context);

protected:
  void report(const DeviceFlowResult &Flow, clang::ASTContext &Ctx) override;

private:
  bool MigrationCheckEnabled;
};

} // namespace torchtidy

#endif // TORCHTIDY_CHECKS_MIXEDDEVICEOPERANDSCHECK_H
