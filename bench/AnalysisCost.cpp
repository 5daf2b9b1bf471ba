//===--- AnalysisCost.cpp - What the device-flow analysis costs ----------===//
//
// Runs the device-flow analysis (both passes: the report pass the checks use
// and the summary pass callers use) over every function body of a
// translation unit, system headers and template instantiations included,
// and prints the worst functions and the analysis time against the time
// clang took to parse the same TU, both measured in this one run. Pointed
// at LibTorch's own headers it shows that the iteration cap keeps the
// largest real functions cheap.
//
// Usage: torchtidy-analysis-cost [--top N] file... -- <compiler flags>
//
//===----------------------------------------------------------------------===//

#include "Analysis/DeviceFlow.h"
#include "Analysis/DeviceFlow.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

using namespace clang;
using Clock = std::chrono::steady_clock;

namespace {

llvm::cl::list<std::string> Files(llvm::cl::Positional,
                                  llvm::cl::desc("<file>..."),
                                  llvm::cl::OneOrMore);
llvm::cl::opt<unsigned> Top("top", llvm::cl::desc("Worst functions shown"),
                            llvm::cl::init(5));

double secondsSince(Clock::time_point Start) {
  return std::chrono::duration<double>(Clock::now() - Start).count();
}

struct FunctionCost {
  double Seconds;
  std::string Name;
  std::string Where;
};

struct Totals {
  unsigned Functions = 0;
  unsigned GaveUp = 0;
  double AnalysisSeconds = 0;
  std::vector<FunctionCost> Worst;
};

class BodyCollector : public RecursiveASTVisitor<BodyCollector> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitFunctionDecl(FunctionDecl *F) {
    if (F->doesThisDeclarationHaveABody() && !F->isDependentContext() &&
        !F->isInvalidDecl())
      Bodies.push_back(F);
    return true;
  }
  std::vector<const FunctionDecl *> Bodies;
};

class CostConsumer : public ASTConsumer {
public:
  explicit CostConsumer(Totals &Sum) : Sum(Sum) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    BodyCollector Collector;
    Collector.TraverseDecl(Ctx.getTranslationUnitDecl());
    for (const FunctionDecl *F : Collector.Bodies) {
      Clock::time_point Start = Clock::now();
      torchtidy::DeviceFlowResult Result = torchtidy::analyzeDeviceFlow(F, Ctx);
      torchtidy::summarizeDeviceFlow(F, Ctx);
      double Seconds = secondsSince(Start);
      ++Sum.Functions;
      Sum.GaveUp += Result.GaveUp;
      Sum.AnalysisSeconds += Seconds;
      Sum.Worst.push_back(
          {Seconds, F->getQualifiedNameAsString(),
           F->getLocation().printToString(Ctx.getSourceManager())});
      keepWorst();
    }
  }

private:
  void keepWorst() {
    std::sort(Sum.Worst.begin(), Sum.Worst.end(),
              [](const FunctionCost &A, const FunctionCost &B) {
                return A.Seconds > B.Seconds;
              });
    if (Sum.Worst.size() > Top)
      Sum.Worst.resize(Top);
  }
  Totals &Sum;
};

/// Parses the TU (timed), then analyses it (timed apart).
class CostAction : public ASTFrontendAction {
public:
  CostAction(Totals &Sum, double &ParseSeconds)
      : Sum(Sum), ParseSeconds(ParseSeconds) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return std::make_unique<TimedConsumer>(Sum, ParseSeconds);
  }

private:
  class TimedConsumer : public CostConsumer {
  public:
    TimedConsumer(Totals &Sum, double &ParseSeconds)
        : CostConsumer(Sum), ParseSeconds(ParseSeconds), Start(Clock::now()) {}
    void HandleTranslationUnit(ASTContext &Ctx) override {
      ParseSeconds += secondsSince(Start);
      CostConsumer::HandleTranslationUnit(Ctx);
    }

  private:
    double &ParseSeconds;
    Clock::time_point Start;
  };
  Totals &Sum;
  double &ParseSeconds;
};

} // namespace

int main(int Argc, const char **Argv) {
  std::string Error;
  std::unique_ptr<tooling::FixedCompilationDatabase> Database =
      tooling::FixedCompilationDatabase::loadFromCommandLine(Argc, Argv, Error);
  if (!Database) {
    llvm::errs() << "torchtidy-analysis-cost: give compiler flags after '--'"
                 << (Error.empty() ? "" : ": " + Error) << "\n";
    return 2;
  }
  llvm::cl::ParseCommandLineOptions(Argc, Argv,
                                    "device-flow analysis cost per function");
  Totals Sum;
  double ParseSeconds = 0;
  tooling::ClangTool Tool(*Database, Files);
  struct Factory : tooling::FrontendActionFactory {
    Factory(Totals &Sum, double &ParseSeconds)
        : Sum(Sum), ParseSeconds(ParseSeconds) {}
    std::unique_ptr<FrontendAction> create() override {
      return std::make_unique<CostAction>(Sum, ParseSeconds);
    }
    Totals &Sum;
    double &ParseSeconds;
  } ActionFactory(Sum, ParseSeconds);
  int Status = Tool.run(&ActionFactory);

  llvm::outs() << llvm::format(
      "%u function bodies, %u gave up at the iteration cap\n", Sum.Functions,
      Sum.GaveUp);
  llvm::outs() << llvm::format(
      "analysis %.2f s, parse %.2f s, analysis / parse %.3f\n",
      Sum.AnalysisSeconds, ParseSeconds,
      ParseSeconds > 0 ? Sum.AnalysisSeconds / ParseSeconds : 0.0);
  llvm::outs() << "worst functions (report + summary pass):\n";
  for (const FunctionCost &Cost : Sum.Worst)
    llvm::outs() << llvm::format("  %8.2f ms  ", Cost.Seconds * 1000)
                 << Cost.Name << "  " << Cost.Where << "\n";
  return Status == 0 ? 0 : 1;
}
