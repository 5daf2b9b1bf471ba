//===--- MissingTargetMigrationCheck.h - libtorch-missing-target-migration -*-
// C++ -*-===//
//
// A tensor that should have followed its siblings to the device and did not:
// `data.to(device)` but a raw `batch.target` in the loss, an input fed raw to
// a moved model, a model left on the host while its inputs moved, and
// `x.to(device);` whose result is discarded. Fix-its reuse the sibling's own
// `.to(...)` call.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_CHECKS_MISSINGTARGETMIGRATIONCHECK_H
#define TORCHTIDY_CHECKS_MISSINGTARGETMIGRATIONCHECK_H

#include "Checks/DeviceFlowCheck.h"

namespace torchtidy {

class MissingTargetMigrationCheck : public DeviceFlowCheck {
public:
  using DeviceFlowCheck::DeviceFlowCheck;

protected:
  void report(const DeviceFlowResult &Flow, clang::ASTContext &Ctx) override;

private:
  void reportDroppedMigration(const DroppedMigration &Dropped,
                              clang::ASTContext &Ctx);
  void reportLeftBehind(const MixedDeviceSite &Site, clang::ASTContext &Ctx);
  void reportUnmovedSource(const MixedDeviceSite &Site, clang::ASTContext &Ctx);
};

} // namespace torchtidy

#endif // TORCHTIDY_CHECKS_MISSINGTARGETMIGRATIONCHECK_H
