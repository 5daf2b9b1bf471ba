#include "Replay.h"

#include <torch/csrc/autograd/function.h>
#include <torch/torch.h>

#include <algorithm>
#include <vector>

namespace torchtidy::replay {

namespace {

/// How the loop adds each iteration's loss to its running total.
enum class Accumulate {
  Tensor, // `total += loss`: the bug, the total keeps every graph
  Item,   // `total += loss.item<double>()`: the fix
};

/// The autograd depth of a tensor's history: 0 when it carries none.
uint64_t autogradDepth(const torch::Tensor &tensor) {
  const auto &node = tensor.grad_fn();
  return node ? node->topological_nr() : 0;
}

/// A linear regression trained by hand-written SGD, as small as a training
/// loop gets; returns the running total's depth after each iteration.
std::vector<uint64_t> accumulatorDepths(torch::Device device, int iterations,
                                        Accumulate accumulate) {
  torch::manual_seed(0);
  auto options = torch::TensorOptions().device(device);
  torch::Tensor inputs = torch::randn({8, 4}, options);
  torch::Tensor targets = torch::randn({8, 1}, options);
  torch::Tensor weight = torch::randn({4, 1}, options).requires_grad_();
  torch::Tensor bias = torch::zeros({1}, options).requires_grad_();
  torch::Tensor total = torch::zeros({}, options);

  std::vector<uint64_t> depths;
  for (int i = 0; i < iterations; ++i) {
    torch::Tensor loss = torch::mse_loss(inputs.mm(weight) + bias, targets);
    loss.backward();
    {
      torch::NoGradGuard noGrad;
      for (const torch::Tensor &parameter : {weight, bias}) {
        parameter.sub_(0.1 * parameter.grad());
        parameter.grad().zero_();
      }
    }
    if (accumulate == Accumulate::Tensor)
      total += loss;
    else
      total += loss.item<double>();
    depths.push_back(autogradDepth(total));
  }
  return depths;
}

} // namespace

ReplayResult replayAccumulation(c10::Device device, int iterations) {
  std::vector<uint64_t> bug =
      accumulatorDepths(device, iterations, Accumulate::Tensor);
  std::vector<uint64_t> fix =
      accumulatorDepths(device, iterations, Accumulate::Item);
  uint64_t first = bug.front(), last = bug.back();
  uint64_t fixDepth = *std::max_element(fix.begin(), fix.end());
  double growth = (static_cast<double>(last) - static_cast<double>(first)) /
                  (iterations - 1);

  ReplayResult result;
  result.outcome = last > first ? Outcome::Confirmed : Outcome::Refuted;
  std::string evidence;
  if (result.outcome == Outcome::Confirmed)
    evidence = "the accumulator's autograd depth grew from " +
               std::to_string(first) + " to " + std::to_string(last) + " in " +
               std::to_string(iterations) + " iterations (+" +
               jsonReal(growth) + " per iteration)";
  else
    evidence = "the accumulator's autograd depth stayed at " +
               std::to_string(last) + " in " + std::to_string(iterations) +
               " iterations: no graph is retained";
  evidence += fixDepth == 0 ? "; with .item() it carries no history"
                            : "; with .item() it reaches depth " +
                                  std::to_string(fixDepth);

  result.json.add("case", "accumulation")
      .add("device", device.str())
      .add("outcome", outcomeName(result.outcome))
      .add("iterations", static_cast<int64_t>(iterations))
      .add("depth_first", static_cast<int64_t>(first))
      .add("depth_last", static_cast<int64_t>(last))
      .add("growth_per_iteration", growth)
      .add("evidence", evidence);
  return result;
}

} // namespace torchtidy::replay
