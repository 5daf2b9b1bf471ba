//===--- DeviceOwners.h - Classes that move their own tensors ---*- C++ -*-===//
//
// Classes that are not Modules but own tensors and move them with a method of
// their own, `to(torch::Device)`: rollout storages, replay buffers, running
// statistics. Inside the class's methods, a tensor field that its `to` moves
// is wherever the object was last moved, just as a registered parameter is
// inside a Module's methods: a fresh `torch::zeros({...})` combined with it
// is a device mix once the object has been moved. Fields that `to` does not
// move are not placed at all.
//
// A `to` that this translation unit declares but does not define makes the
// class no device owner here: what it moves cannot be seen.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_ANALYSIS_DEVICEOWNERS_H
#define TORCHTIDY_ANALYSIS_DEVICEOWNERS_H

#include "clang/AST/DeclCXX.h"

namespace torchtidy {

/// Whether Field is a tensor field of a class that is not a Module and whose
/// `to(Device)` (defined in this translation unit) assigns it a copy moved
/// to the device it was given. Cached per translation unit
/// (forgetDeviceOwners() clears it).
bool movesWithItsObject(const clang::FieldDecl *Field);

/// Whether Class is such a class: it has at least one field that
/// movesWithItsObject().
bool isDeviceOwningClass(const clang::CXXRecordDecl *Class);

void forgetDeviceOwners();

} // namespace torchtidy

#endif // TORCHTIDY_ANALYSIS_DEVICEOWNERS_H
