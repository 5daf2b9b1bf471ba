//===--- ReplayCase.cpp - The pattern a static finding replays as ---------===//

#include "ReplayCase.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

using namespace llvm;

namespace torchtidy {
namespace {

/// The operation a libtorch-mixed-device-operands message names: "...; '*'
/// needs all its tensor operands on one device".
std::optional<StringRef> opInMessage(StringRef Message) {
  size_t End = Message.find("' needs all its tensor operands");
  if (End == StringRef::npos)
    return std::nullopt;
  size_t Begin = Message.take_front(End).rfind('\'');
  if (Begin == StringRef::npos)
    return std::nullopt;
  return Message.slice(Begin + 1, End);
}

/// A spelled operation as a LibTorch op name: operators by their op,
/// `torch::nll_loss` and `x.matmul` by their last name, a module's
/// `forward` as the linear layer it most often is.
std::string opNameOf(StringRef Spelled) {
  static const std::pair<StringRef, StringRef> Operators[] = {
      {"+", "add"},  {"+=", "add"}, {"-", "sub"},  {"-=", "sub"}, {"*", "mul"},
      {"*=", "mul"}, {"/", "div"},  {"/=", "div"}, {"==", "eq"},  {"!=", "ne"},
      {"<", "lt"},   {"<=", "le"},  {">", "gt"},   {">=", "ge"}};
  for (const auto &[Spelling, Op] : Operators)
    if (Spelled.trim() == Spelling)
      return Op.str();
  size_t Cut = Spelled.find_last_of(":.>");
  StringRef Last =
      Cut == StringRef::npos ? Spelled : Spelled.drop_front(Cut + 1);
  return Last == "forward" ? "linear" : Last.str();
}

/// The last known op called on the line before Column: the call the flagged
/// operand is an argument of.
std::optional<std::string> opCalledBefore(StringRef Line, unsigned Column,
                                          ArrayRef<std::string> KnownOps) {
  Regex Call(
      "([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*(<[^<>()]*>)?[[:space:]]*\\(");
  std::optional<std::string> Found;
  StringRef Rest = Line;
  SmallVector<StringRef, 3> Groups;
  while (Call.match(Rest, &Groups)) {
    size_t At = Groups[1].data() - Line.data();
    if (Column && At >= Column - 1)
      break;
    if (is_contained(KnownOps, Groups[1].str()))
      Found = Groups[1].str();
    Rest = Line.drop_front(Groups[0].data() - Line.data() + Groups[0].size());
  }
  return Found;
}

} // namespace

std::optional<ReplayCase> replayCaseOf(const StaticFinding &Finding,
                                       StringRef SourceLine,
                                       ArrayRef<std::string> KnownOps) {
  if (Finding.Check == "libtorch-graph-retaining-accumulation")
    return ReplayCase{ReplayCase::Accumulation, "", ""};
  if (Finding.Check != "libtorch-mixed-device-operands" &&
      Finding.Check != "libtorch-missing-target-migration")
    return std::nullopt;

  if (std::optional<StringRef> Spelled = opInMessage(Finding.Message)) {
    std::string Op = opNameOf(*Spelled);
    if (is_contained(KnownOps, Op))
      return ReplayCase{ReplayCase::MixedDevice, Op,
                        "'" + Spelled->str() + "' in the finding"};
  }
  if (std::optional<std::string> Op =
          opCalledBefore(SourceLine, Finding.Column, KnownOps))
    return ReplayCase{ReplayCase::MixedDevice, *Op,
                      "called on line " + std::to_string(Finding.Line)};
  return ReplayCase{ReplayCase::MixedDevice, "add",
                    "no known op on the line; any op of two tensors checks "
                    "their devices"};
}

} // namespace torchtidy
