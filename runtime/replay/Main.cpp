// torchtidy-replay: runs one pattern torchtidy flagged, alone, with small
// tensors, and says on one JSON line whether it reproduces. `torchtidy
// replay` runs it once per static finding. See docs/runtime.md.
//
//   torchtidy-replay [--device cuda|meta|cpu|auto] mixed-device <op>
//   torchtidy-replay [--device ...] accumulation [--iterations N]
//   torchtidy-replay --list-ops
//
// Exit status: 0 confirmed, 1 refuted, 2 usage error (or the replay could
// not run at all), 3 inconclusive (the meta device cannot decide the op).
#include "MixedDeviceOps.h"
#include "Replay.h"

#include <torch/cuda.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

using namespace torchtidy::replay;

namespace {

constexpr int ExitConfirmed = 0;
constexpr int ExitRefuted = 1;
constexpr int ExitUsage = 2;
constexpr int ExitInconclusive = 3;

constexpr const char *Usage =
    "usage: torchtidy-replay [--device cuda|meta|cpu|auto] mixed-device <op>\n"
    "       torchtidy-replay [--device cuda|meta|cpu|auto] accumulation "
    "[--iterations N]\n"
    "       torchtidy-replay --list-ops\n"
    "\n"
    "Runs one flagged pattern alone and prints one JSON line saying whether\n"
    "it reproduces. --device auto (the default) is cuda when available, else\n"
    "meta for mixed-device and cpu for accumulation.\n"
    "Exit status: 0 confirmed, 1 refuted, 2 usage error, 3 inconclusive.\n";

[[noreturn]] void fail(const std::string &message) {
  std::cerr << "torchtidy-replay: error: " << message << "\n";
  std::exit(ExitUsage);
}

struct Arguments {
  std::string device = "auto";
  std::optional<std::string> iterations;
  bool listOps = false;
  std::vector<std::string> positional; // the case, then its operand
};

Arguments parseArguments(int argc, char **argv) {
  Arguments args;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    // Both "--name value" and "--name=value".
    auto value = [&](const std::string &name) -> std::optional<std::string> {
      if (arg == name) {
        if (i + 1 == argc)
          fail(name + " needs a value");
        return std::string(argv[++i]);
      }
      if (arg.rfind(name + "=", 0) == 0)
        return arg.substr(name.size() + 1);
      return std::nullopt;
    };
    if (arg == "-h" || arg == "--help") {
      std::cout << Usage;
      std::exit(0);
    } else if (arg == "--list-ops") {
      args.listOps = true;
    } else if (auto device = value("--device")) {
      args.device = *device;
    } else if (auto iterations = value("--iterations")) {
      args.iterations = *iterations;
    } else if (arg.size() > 1 && arg[0] == '-') {
      fail("unknown option '" + arg + "'");
    } else {
      args.positional.push_back(arg);
    }
  }
  return args;
}

/// The device a case runs on. `auto` is the accelerator: CUDA when there is
/// one; without, meta stands in for it where only devices matter
/// (mixed-device) and the CPU where values must be computed (accumulation).
c10::Device resolveDevice(const std::string &name, bool needsValues) {
  bool cuda = torch::cuda::is_available();
  if (name == "auto")
    return cuda ? c10::Device(c10::kCUDA)
                : c10::Device(needsValues ? c10::kCPU : c10::kMeta);
  std::optional<c10::Device> device;
  try {
    device = c10::Device(name);
  } catch (const std::exception &) {
  }
  if (!device ||
      !(device->is_cuda() || device->is_cpu() || device->type() == c10::kMeta))
    fail("unknown device '" + name + "' (cuda, meta, cpu or auto)");
  if (device->is_cuda() && !cuda)
    fail("--device " + name + ": torch::cuda::is_available() is false");
  if (device->type() == c10::kMeta && needsValues)
    fail("accumulation needs a device that computes values (cuda or cpu): "
         "meta tensors have none to .item()");
  return *device;
}

int parseIterations(const std::optional<std::string> &text) {
  if (!text)
    return 20;
  char *end = nullptr;
  long iterations = std::strtol(text->c_str(), &end, 10);
  if (text->empty() || *end != '\0' || iterations < 2 || iterations > 100000)
    fail("--iterations must be an integer from 2 to 100000 (growth needs two "
         "iterations), not '" +
         *text + "'");
  return static_cast<int>(iterations);
}

ReplayResult replay(const Arguments &args) {
  if (args.positional.empty())
    fail("expected a case: mixed-device <op> or accumulation");
  const std::string &kind = args.positional[0];
  if (kind == "mixed-device") {
    if (args.positional.size() != 2)
      fail("mixed-device takes one op name (--list-ops lists them)");
    if (args.iterations)
      fail("--iterations applies to accumulation only");
    const std::string &op = args.positional[1];
    if (!findMixedDeviceOp(op))
      fail("unknown op '" + op + "' (--list-ops lists the ops)");
    return replayMixedDevice(op, resolveDevice(args.device, false));
  }
  if (kind == "accumulation") {
    if (args.positional.size() != 1)
      fail("accumulation takes no operand");
    int iterations = parseIterations(args.iterations);
    return replayAccumulation(resolveDevice(args.device, true), iterations);
  }
  fail("unknown case '" + kind + "' (mixed-device or accumulation)");
}

} // namespace

int main(int argc, char **argv) {
  Arguments args = parseArguments(argc, argv);
  if (args.listOps) {
    if (!args.positional.empty())
      fail("--list-ops takes no case");
    for (const MixedDeviceOp &op : mixedDeviceOps())
      std::cout << op.name << "\n";
    return 0;
  }
  try {
    ReplayResult result = replay(args);
    std::cout << result.json.str() << std::endl;
    switch (result.outcome) {
    case Outcome::Confirmed:
      return ExitConfirmed;
    case Outcome::Refuted:
      return ExitRefuted;
    case Outcome::Inconclusive:
      return ExitInconclusive;
    }
    return ExitInconclusive;
  } catch (const std::exception &error) {
    // Not the replayed op's failure (that one is the evidence): setting up
    // the replay failed, so there is nothing to report on stdout.
    fail("could not run the replay: " + firstLineOfError(error));
  }
}
