#include "MixedDeviceOps.h"
#include "Replay.h"

#include <c10/core/ScalarType.h>

#include <sstream>

namespace torchtidy::replay {

namespace {

std::string describeTensor(const at::Tensor &tensor) {
  std::ostringstream text;
  text << "a " << c10::toString(tensor.scalar_type()) << " tensor of shape "
       << tensor.sizes() << " on " << tensor.device();
  return text.str();
}

/// The first sentence of an error line: "Could not run 'aten::dot' with
/// arguments from the 'Meta' backend." without the list of backends after it.
std::string firstSentence(const std::string &line) {
  size_t end = line.find(". ");
  return end == std::string::npos ? line : line.substr(0, end + 1);
}

} // namespace

ReplayResult replayMixedDevice(std::string_view name, c10::Device accelerator) {
  const MixedDeviceOp &op = *findMixedDeviceOp(name);
  ReplayResult result;
  result.json.add("case", "mixed-device")
      .add("op", name)
      .add("device", accelerator.str());

  // Operands are made outside the try blocks: failing to make them (no such
  // device) is not the op's failure.
  Operands mixed = makeOperands(op, accelerator, c10::Device(c10::kCPU));
  std::string mixedError;
  try {
    at::Tensor output = op.call(mixed);
    std::string evidence =
        std::string(name) + " ran and returned " + describeTensor(output);
    // Only TensorIterator ops (elementwise, comparisons, some losses) check
    // devices on meta; the meta kernels of the others (mm, cat, nll_loss,
    // ...) accept a CPU operand that CUDA's device check rejects.
    if (accelerator.type() == c10::kMeta) {
      result.outcome = Outcome::Inconclusive;
      evidence += " (its meta kernel does not check devices: only a replay "
                  "on cuda decides)";
    }
    result.json.add("outcome", outcomeName(result.outcome))
        .add("evidence", evidence);
    return result;
  } catch (const std::exception &error) {
    mixedError = firstLineOfError(error);
  }

  // The control: every operand on the accelerator. Only if that runs is the
  // device mix what made the call fail (and not, say, an op the accelerator
  // does not implement).
  Operands together = makeOperands(op, accelerator, accelerator);
  try {
    op.call(together);
  } catch (const std::exception &error) {
    result.outcome = Outcome::Inconclusive;
    result.json.add("outcome", outcomeName(result.outcome))
        .add("evidence", std::string(name) + " fails on " + accelerator.str() +
                             " even with every operand there, so its failure "
                             "says nothing of the device mix: " +
                             firstSentence(firstLineOfError(error)));
    return result;
  }
  result.outcome = Outcome::Confirmed;
  result.json.add("outcome", outcomeName(result.outcome))
      .add("evidence", mixedError);
  return result;
}

} // namespace torchtidy::replay
