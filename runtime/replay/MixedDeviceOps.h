// The ops torchtidy-replay can run with a device mix: one table, each entry
// saying which small operands the op takes and how to call it.
#ifndef TORCHTIDY_REPLAY_MIXEDDEVICEOPS_H
#define TORCHTIDY_REPLAY_MIXEDDEVICEOPS_H

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <cstdint>
#include <string_view>
#include <vector>

namespace torchtidy::replay {

/// Where an operand goes in the mixed run. The first operand of every op is
/// on the accelerator; the one the flagged code leaves behind is on the host.
enum class Side { Accelerator, Host };

/// What values an operand holds, so that the op accepts them.
enum class Values {
  Real,        // standard normal floats
  Probability, // floats in [0, 1), for binary_cross_entropy
  Index,       // int64 in [0, bound), for targets and indices
  Mask,        // bool
};

struct OperandSpec {
  std::vector<int64_t> shape; // never empty: a 0-dim CPU tensor mixes freely
  Values values;
  Side side;
  int64_t bound = 0; // Values::Index only
};

using Operands = std::vector<at::Tensor>;

struct MixedDeviceOp {
  std::string_view name; // the LibTorch op name, without namespace
  std::vector<OperandSpec> operands;
  at::Tensor (*call)(const Operands &);
};

/// Every op, in the order --list-ops prints them.
const std::vector<MixedDeviceOp> &mixedDeviceOps();

/// The op named `name`, or nullptr.
const MixedDeviceOp *findMixedDeviceOp(std::string_view name);

/// The op's operands, each on `accelerator` or on `host` as its spec says.
/// Deterministic: the values do not depend on earlier calls.
Operands makeOperands(const MixedDeviceOp &op, c10::Device accelerator,
                      c10::Device host);

} // namespace torchtidy::replay

#endif
