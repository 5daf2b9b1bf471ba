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
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>

namespace torchtidy {

/// Tensor fields of one class.
using MovedFields = llvm::SmallPtrSet<const clang::FieldDecl *, 8>;

/// The tensor fields that Class's `to(Device)` methods assign a copy moved to
/// the device they were given; none when a `to(Device)` is declared but not
/// defined in this translation unit. The analysis asks it once per class and
/// unit, through UnitAnalysis (movesWithItsObject, isDeviceOwningClass).
std::optional<MovedFields> collectMovedFields(const clang::CXXRecordDecl *Class);

} // namespace torchtidy

#endif // TORCHTIDY_ANALYSIS_DEVICEOWNERS_H
