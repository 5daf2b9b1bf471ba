// What one replay found, and the pieces both kinds of replay share.
#ifndef TORCHTIDY_REPLAY_REPLAY_H
#define TORCHTIDY_REPLAY_REPLAY_H

#include "JsonLine.h"

#include <c10/core/Device.h>

#include <exception>
#include <string>
#include <string_view>

namespace torchtidy::replay {

/// Inconclusive: the replay could not decide. On meta, most ops that are
/// not elementwise have meta kernels that do not check devices, or no meta
/// kernel at all; only a replay on CUDA decides those.
enum class Outcome { Confirmed, Refuted, Inconclusive };

struct ReplayResult {
  Outcome outcome = Outcome::Refuted;
  JsonLine json; // the one line printed on stdout
};

/// The first line of an exception's message. For a c10::Error that is the
/// message LibTorch wrote, without the "Exception raised from ..." location
/// and backtrace it appends.
std::string firstLineOfError(const std::exception &error);

/// "confirmed", "refuted" or "inconclusive".
inline const char *outcomeName(Outcome outcome) {
  switch (outcome) {
  case Outcome::Confirmed:
    return "confirmed";
  case Outcome::Refuted:
    return "refuted";
  case Outcome::Inconclusive:
    return "inconclusive";
  }
  return "inconclusive";
}

/// Runs the flagged op with its first operand on `accelerator` and the
/// operand the code leaves behind on the CPU. Confirmed when the mixed call
/// throws while the same call with every operand on `accelerator` does not;
/// inconclusive when the meta device cannot tell (see Outcome).
/// `op` must name an op of mixedDeviceOps().
ReplayResult replayMixedDevice(std::string_view op, c10::Device accelerator);

/// Runs a tiny training loop on `device` that accumulates the loss tensor
/// (`total += loss`) and measures the accumulator's autograd depth in each of
/// `iterations` (>= 2) iterations; the contrast accumulates
/// `loss.item<double>()`. Confirmed when the depth grows. `device` must
/// compute values (not meta: .item() needs them).
ReplayResult replayAccumulation(c10::Device device, int iterations);

} // namespace torchtidy::replay

#endif
