//===- OpClassifier.h - Which ops the shim looks at, and how ----*- C++ -*-===//
//
// Most ops are not events and must cost little: an op is classified by its
// name first, and only the few ops whose name says so (copies, syncs, the
// add family) are looked at more closely.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_RUNTIME_SHIM_OPCLASSIFIER_H
#define TORCHTIDY_RUNTIME_SHIM_OPCLASSIFIER_H

#include <ATen/record_function.h>
#include <c10/core/Device.h>

#include <optional>

namespace torchtidy::rt {

struct OpTraits {
  /// Moves data between devices (to, copy_, ...) or reads only the metadata
  /// of some operand (expand_as, set_data, ...): operands on several devices
  /// are what it is for, not a mixed-device bug.
  bool MixExempt = false;
  /// Advanced indexing (index, index_put_): index tensors on the CPU are
  /// moved to the indexed tensor's device by LibTorch itself, so CPU tensors
  /// inside its list operand do not count as a device.
  bool CpuIndicesExempt = false;
  /// Makes the host wait for the device: item, nonzero, equal, ...
  bool Sync = false;
  /// A copy between devices: a sync when it is device-to-host, an event when
  /// it is a non_blocking copy from pageable memory.
  bool Copy = false;
  /// add / sub and their in-place forms: where an accumulator that keeps its
  /// autograd history grows.
  bool AddFamily = false;
};

/// The traits of the op named \p Name ("aten::add_"); all false for an op
/// the shim has nothing special to say about.
OpTraits classifyOp(const char *Name);

/// The operands of a copy op, found by the names of its schema's arguments
/// (self, src, dst, other, device, non_blocking), which are the same in
/// every LibTorch version, unlike their positions.
struct CopyOperands {
  at::Tensor Source;
  c10::Device Destination = c10::Device(c10::DeviceType::CPU);
  bool NonBlocking = false;
};

/// The operands of \p Fn, a copy op observed in its start callback; none
/// when its schema does not name them.
std::optional<CopyOperands> copyOperands(const at::RecordFunction &Fn);

} // namespace torchtidy::rt

#endif
