//===--- DeviceFlowTest.cpp - The CFG dataflow on small functions ---------===//
//
// Runs analyzeDeviceFlow on functions written against a miniature LibTorch
// (same namespaces and names, a few declarations), so flow-sensitivity -
// merges, loop back edges, device variables - is tested in milliseconds. The
// lit suites test the same analysis on the real headers.
//
//===----------------------------------------------------------------------===//

#include "Analysis/DeviceFlow.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

#include "MiniTorch.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace torchtidy;
using torchtidy_test::MiniTorch;

namespace {

struct Analysed {
  std::unique_ptr<ASTUnit> Unit;
  const FunctionDecl *F = nullptr;
  DeviceFlowResult Result;
  FunctionSummary Summary;
};

/// Parses the code and runs both passes on its function `f`.
Analysed analyse(const std::string &Code) {
  Analysed A;
  A.Unit = tooling::buildASTFromCodeWithArgs(std::string(MiniTorch) + Code,
                                             {"-std=c++17"});
  EXPECT_TRUE(A.Unit);
  ASTContext &Ctx = A.Unit->getASTContext();
  auto Matches =
      match(functionDecl(hasName("f"), isDefinition()).bind("f"), Ctx);
  EXPECT_EQ(Matches.size(), 1u);
  if (!Matches.empty()) {
    A.F = Matches[0].getNodeAs<FunctionDecl>("f");
    A.Result = analyzeDeviceFlow(A.F, Ctx);
    A.Summary = summarizeDeviceFlow(A.F, Ctx);
  }
  return A;
}

/// Whether the summary says "wherever parameter Index's argument is".
bool followsParameter(const AbstractValue &V, const FunctionDecl *F,
                      unsigned Index) {
  return V.Where.isKnown() && V.Where.Devices.isAny() &&
         V.Where.DeviceVar == F->getParamDecl(Index);
}

TEST(DeviceFlowTest, HostAndCudaOperandsMix) {
  Analysed A = analyse(R"cpp(
    void f() {
      torch::Tensor h = torch::ones(3);
      auto d = torch::ones(3, torch::kCUDA);
      auto s = h + d;
    })cpp");
  ASSERT_EQ(A.Result.MixedSites.size(), 1u);
  EXPECT_EQ(A.Result.MixedSites[0].Stayed.Spelling, "h");
  EXPECT_EQ(A.Result.MixedSites[0].Other.Spelling, "d");
  EXPECT_FALSE(A.Result.MixedSites[0].MissingMigration);
}

TEST(DeviceFlowTest, ReassignmentIsFlowSensitive) {
  Analysed A = analyse(R"cpp(
    void f() {
      auto h = torch::ones(3);
      auto d = torch::ones(3, torch::kCUDA);
      h = h.to(torch::Device(torch::kCUDA));
      auto s = h + d;
    })cpp");
  EXPECT_TRUE(A.Result.MixedSites.empty());
}

TEST(DeviceFlowTest, MergeOfBranchesMixesOnOnePath) {
  Analysed A = analyse(R"cpp(
    void f(bool gpu) {
      auto x = torch::ones(3);
      auto y = torch::ones(3);
      if (gpu)
        x = x.cuda();
      auto s = x * y;
    })cpp");
  ASSERT_EQ(A.Result.MixedSites.size(), 1u);
  EXPECT_EQ(A.Result.MixedSites[0].Stayed.Spelling, "y");
}

TEST(DeviceFlowTest, LoopBackEdgeCarriesTheSecondIterationsDevice) {
  // Fine in the first iteration; x is back on the host from the second on.
  Analysed A = analyse(R"cpp(
    void f(int n) {
      auto x = torch::ones(3, torch::kCUDA);
      auto w = torch::ones(3, torch::kCUDA);
      for (int i = 0; i < n; ++i) {
        auto y = x * w;
        x = y.cpu();
      }
    })cpp");
  ASSERT_EQ(A.Result.MixedSites.size(), 1u);
  EXPECT_EQ(A.Result.MixedSites[0].Stayed.Spelling, "x");
}

TEST(DeviceFlowTest, OneDeviceVariableKeepsTensorsTogether) {
  Analysed A = analyse(R"cpp(
    void f(torch::Device device, bool flag) {
      auto a = torch::ones(3).to(device);
      auto b = torch::ones(3, device);
      auto c = a + b;
      auto h = torch::ones(3);
      auto m = c * h;
    })cpp");
  ASSERT_EQ(A.Result.MixedSites.size(), 1u);
  EXPECT_EQ(A.Result.MixedSites[0].Stayed.Spelling, "h");
}

TEST(DeviceFlowTest, DiscardedMigrationIsReportedOnceAtTheDrop) {
  Analysed A = analyse(R"cpp(
    void f(torch::Device device) {
      auto x = torch::ones(3);
      x.to(device);
      auto y = torch::ones(3, device) + x;
    })cpp");
  ASSERT_EQ(A.Result.DroppedMigrations.size(), 1u);
  EXPECT_TRUE(A.Result.DroppedMigrations[0].Assignable);
  EXPECT_EQ(A.Result.DroppedMigrations[0].Migration, ".to(device)");
  EXPECT_TRUE(A.Result.MixedSites.empty());
}

TEST(DeviceFlowTest, UnknownParametersAreNeverFlagged) {
  Analysed A = analyse(R"cpp(
    void f(torch::Tensor a, const torch::Tensor &b) {
      auto c = a + b;
      auto d = torch::ones(3) * a;
    })cpp");
  EXPECT_TRUE(A.Result.MixedSites.empty());
  EXPECT_FALSE(A.Result.GaveUp);
}

TEST(DeviceFlowTest, DeepExpressionChainsNeitherCrashNorLosePrecision) {
  // `x + x + ... + x` nests 600 calls deep without nesting brackets (which
  // clang caps at 256).
  std::string Sum = "x";
  for (int I = 0; I < 600; ++I)
    Sum += " + x";
  Analysed A = analyse("void f() { auto x = torch::ones(3); auto y = (" + Sum +
                       ") * torch::ones(3, torch::kCUDA); }");
  EXPECT_FALSE(A.Result.GaveUp);
  // The CFG lists every partial sum before its parent, so the memoised walk
  // never recurses deeply and the host sum still meets the CUDA tensor.
  EXPECT_EQ(A.Result.MixedSites.size(), 1u);
}

TEST(FunctionSummaryTest, ResultFollowsTheArgumentItIsComputedFrom) {
  Analysed A = analyse(R"cpp(
    torch::Tensor f(int n, const torch::Tensor &x) { return x * x + x; })cpp");
  EXPECT_TRUE(followsParameter(A.Summary.Result, A.F, 1));
  EXPECT_TRUE(A.Summary.Effects.empty());
}

TEST(FunctionSummaryTest, ResultOnADeviceParameterOrTheHost) {
  Analysed Moved = analyse(R"cpp(
    torch::Tensor f(torch::Tensor x, torch::Device d) { return x.to(d); })cpp");
  EXPECT_TRUE(followsParameter(Moved.Summary.Result, Moved.F, 1));
  Analysed Host = analyse(R"cpp(
    torch::Tensor f(torch::Device d) { return torch::ones(3); })cpp");
  EXPECT_TRUE(Host.Summary.Result.Where.isDefinitelyHost());
}

TEST(FunctionSummaryTest, OnlyStorageTheCallerSharesIsAnEffect) {
  Analysed A = analyse(R"cpp(
    void f(torch::Tensor &shared, torch::Tensor copy, const torch::Tensor &in,
           torch::Device d) {
      shared = shared.to(d);
      copy = copy.to(d);
    })cpp");
  ASSERT_EQ(A.Summary.Effects.size(), 1u);
  EXPECT_EQ(A.Summary.Effects[0].first, A.F->getParamDecl(0));
  EXPECT_TRUE(followsParameter(A.Summary.Effects[0].second, A.F, 3));
}

TEST(FunctionSummaryTest, PathsThatDisagreeAreUnknownNotGuessed) {
  Analysed A = analyse(R"cpp(
    torch::Tensor f(const torch::Tensor &x, torch::Device d, bool b) {
      if (b)
        return x;
      return x.to(d);
    })cpp");
  // Wherever x is, or on d: nothing the caller can name.
  EXPECT_FALSE(followsParameter(A.Summary.Result, A.F, 0));
  EXPECT_FALSE(followsParameter(A.Summary.Result, A.F, 1));
}

TEST(FunctionSummaryTest, RecursionEndsInUnknown) {
  Analysed A = analyse(R"cpp(
    torch::Tensor f(const torch::Tensor &x, int n) {
      return n == 0 ? torch::ones(3) : f(x, n - 1);
    })cpp");
  EXPECT_FALSE(A.Summary.Result.Where.isKnown());
}

TEST(FunctionSummaryTest, CallersUseTheCalleesSummary) {
  Analysed A = analyse(R"cpp(
    torch::Tensor onDevice(const torch::Tensor &x, torch::Device d) {
      return x.to(d);
    }
    torch::Tensor host(const torch::Tensor &x) { return x.cpu(); }
    void f(torch::Device device) {
      auto x = torch::ones(3);
      auto fine = onDevice(x, device) + torch::ones(3, device);
      auto mixed = host(onDevice(x, device)) + torch::ones(3, device);
    })cpp");
  ASSERT_EQ(A.Result.MixedSites.size(), 1u);
  EXPECT_EQ(A.Result.MixedSites[0].Stayed.Spelling,
            "host(onDevice(x, device))");
}

} // namespace
