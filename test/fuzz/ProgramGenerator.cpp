//===--- ProgramGenerator.cpp - LibTorch programs from fuzzer bytes -------===//

#include "ProgramGenerator.h"

#include "llvm/ADT/StringRef.h"

#include <iterator>
#include <string>
#include <vector>

namespace torchtidy::fuzz {
namespace {

/// What the generated program declares before the fuzzed function: a module,
/// helpers whose summaries the analysis computes, and tensors spelled every
/// way LibTorch users spell them (torch::Tensor, at::Tensor, auto, an alias).
constexpr const char *Prelude = R"cpp(
struct Net : torch::nn::Module {
  Net() {
    fc = register_module("fc", torch::nn::Linear(4, 4));
    drop = register_module("drop", torch::nn::Dropout(0.5));
  }
  torch::Tensor forward(torch::Tensor x) { return drop(fc(x)); }
  torch::nn::Linear fc{nullptr};
  torch::nn::Dropout drop{nullptr};
};
using TensorAlias = torch::Tensor;
torch::Tensor moveTo(torch::Tensor x, torch::Device d) { return x.to(d); }
torch::Tensor runModel(std::shared_ptr<Net> net, const at::Tensor &x) {
  return net->forward(x);
}
std::pair<torch::Tensor, torch::Tensor> split(torch::Tensor x) {
  return {x, x.cpu()};
}
void fuzzed(torch::Device device, std::vector<torch::data::Example<>> &loader) {
  auto model = std::make_shared<Net>();
  torch::Tensor t0 = torch::zeros({4, 4});
  auto t1 = torch::ones({4, 4});
  TensorAlias t2 = torch::randn({4, 4});
  at::Tensor t3;
  double total = 0;
)cpp";

/// Statements that are valid anywhere in the fuzzed function.
constexpr const char *PlainStatements[] = {
    "$A = $B.to(device);",
    "$A = $B.cpu();",
    "$A = $B + $C;",
    "$A = $B * $C;",
    "$A = torch::randn({4, 4});",
    "$A = torch::ones({4, 4}, $B.options());",
    "model->to(device);",
    "$A = model->forward($B);",
    "$A += $B;",
    "total += $A.item<double>();",
    "$A = torch::mse_loss($B, $C);",
    "$A.backward();",
    "{ auto pinned = $B.pin_memory(); "
    "$A = pinned.to(device, /*non_blocking=*/true); }",
    "{ auto [p, q] = std::make_pair($B, $C); $A = q; }",
    "std::tie($A, $B) = std::make_tuple($C, $A);",
    "$A = moveTo($B, device);",
    "$A = runModel(model, $B);",
    "{ auto step = [&](torch::Tensor x) { return model->forward(x); }; "
    "$A = step($B); }",
    "$A = $B.to(torch::kCUDA);",
    "$A = $B.to(torch::Device(\"cuda:1\"));",
    "$B.to(device);",
    "$A = split($B).second;",
    "$A = torch::cat({$B, $C});",
    "$A = $B.to($C.device());",
    "model->eval();",
    "model->train();",
    "$A = torch::zeros({4}, torch::TensorOptions().device(device));",
    "{ auto &ref = $A; ref = ref.to(device); }",
    "if (!torch::cuda::is_available()) return;",
    "$A = $B.index({0});",
};

/// At most this many statements, so every input is linted in bounded time.
constexpr unsigned MaxStatements = 160;

class Bytes {
public:
  Bytes(const uint8_t *Data, size_t Size) : Data(Data), Size(Size) {}
  bool done() const { return Next >= Size; }
  unsigned next() { return Next < Size ? Data[Next++] : 0; }

private:
  const uint8_t *Data;
  size_t Size;
  size_t Next = 0;
};

/// The open blocks, innermost last, and what closes them.
enum class Block { Plain, Loop, If };

class Writer {
public:
  explicit Writer(Bytes &In) : In(In) {}

  std::string run() {
    Out = Prelude;
    for (unsigned N = 0; N < MaxStatements && !In.done(); ++N)
      statement(In.next());
    while (!Open.empty())
      close(/*AllowElse=*/false);
    Out += "}\n";
    return Out;
  }

private:
  std::string tensor() { return "t" + std::to_string(In.next() % 4); }
  bool inLoop() const {
    for (Block B : Open)
      if (B == Block::Loop)
        return true;
    return false;
  }
  bool inBatchLoop() const { return BatchLoops > 0; }
  void line(const std::string &Text) {
    Out.append(2 * (Open.size() + 1), ' ');
    Out += Text + "\n";
  }
  void open(const std::string &Text, Block Kind) {
    line(Text);
    Open.push_back(Kind);
    OpenedBatchLoop.push_back(Text.rfind("for (auto &batch", 0) == 0);
    BatchLoops += OpenedBatchLoop.back();
  }
  void close(bool AllowElse) {
    Block Kind = Open.back();
    BatchLoops -= OpenedBatchLoop.back();
    Open.pop_back();
    OpenedBatchLoop.pop_back();
    if (Kind == Block::If && AllowElse && In.next() % 2) {
      line("} else {");
      Open.push_back(Block::Plain);
      OpenedBatchLoop.push_back(false);
      return;
    }
    line("}");
  }

  /// Fills a statement template: $A, $B and $C stand for tensors the input
  /// picks, the same one wherever a letter repeats.
  std::string fill(llvm::StringRef Template) {
    std::string Picked[3];
    std::string Text;
    for (size_t I = 0; I < Template.size(); ++I) {
      unsigned Letter = I + 1 < Template.size() ? Template[I + 1] - 'A' : 3;
      if (Template[I] != '$' || Letter > 2) {
        Text += Template[I];
        continue;
      }
      if (Picked[Letter].empty())
        Picked[Letter] = tensor();
      Text += Picked[Letter];
      ++I;
    }
    return Text;
  }

  void statement(unsigned Choice) {
    Choice %= std::size(PlainStatements) + 7;
    if (Choice < std::size(PlainStatements))
      return line(fill(PlainStatements[Choice]));
    switch (Choice - std::size(PlainStatements)) {
    case 0:
      return open("for (auto &batch : loader) {", Block::Loop);
    case 1:
      return open("if (device.is_cuda()) {", Block::If);
    case 2:
      return open(fill("while ($A.sum().item<double>() > 0) {"), Block::Loop);
    case 3:
      return open("{ torch::NoGradGuard no_grad;", Block::Plain);
    case 4:
      if (!Open.empty())
        close(/*AllowElse=*/true);
      return;
    case 5:
      if (inBatchLoop())
        return line(fill(In.next() % 2 ? "$A = batch.data;"
                                       : "$A = batch.target.to(device);"));
      return line(fill("$A = torch::tensor({1.0, 2.0});"));
    default:
      if (inLoop())
        return line(In.next() % 2 ? "break;" : "continue;");
      return line(fill("$A = $A.detach();"));
    }
  }

  Bytes &In;
  std::string Out;
  std::vector<Block> Open;
  std::vector<bool> OpenedBatchLoop;
  int BatchLoops = 0;
};

} // namespace

std::string generateProgram(const uint8_t *Data, size_t Size) {
  Bytes In(Data, Size);
  return Writer(In).run();
}

} // namespace torchtidy::fuzz
