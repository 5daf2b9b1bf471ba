//===--- ProjectFactsTest.cpp - Summaries as data, and the project's map --===//
//
// A summary written by one translation unit is read by another: the round
// trip must keep what callers use (where the result is, relative to which
// parameter; its history and notes), refuse what does not fit, and the
// project's map must tell apart one definition, two that agree and two
// that differ.
//
//===----------------------------------------------------------------------===//

#include "Analysis/ProjectFacts.h"
#include "Analysis/AnalysisContext.h"
#include "Analysis/SummaryData.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include "MiniTorch.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace torchtidy;
using torchtidy_test::MiniTorch;

namespace {

struct Parsed {
  std::unique_ptr<ASTUnit> Unit;
  const FunctionDecl *F = nullptr;
};

Parsed parse(const std::string &Code,
             const std::string &FileName = "input.cc") {
  Parsed P;
  P.Unit = tooling::buildASTFromCodeWithArgs(std::string(MiniTorch) + Code,
                                             {"-std=c++17"}, FileName);
  EXPECT_TRUE(P.Unit);
  auto Matches =
      match(functionDecl(hasName("f")).bind("f"), P.Unit->getASTContext());
  EXPECT_FALSE(Matches.empty());
  if (!Matches.empty())
    P.F = Matches[0].getNodeAs<FunctionDecl>("f");
  return P;
}

/// The summary of `f` in Code as data, as the unit defining it writes it.
/// The unit's file is on disk, where another unit reading a note finds it.
std::string written(const std::string &Code) {
  std::string Path = ::testing::TempDir() + "project_facts_definer.cc";
  {
    std::error_code EC;
    llvm::raw_fd_ostream Out(Path, EC);
    Out << MiniTorch << Code;
  }
  Parsed P = parse(Code, Path);
  const FunctionSummary *Summary =
      deviceFlowSummaryOf(P.F, P.Unit->getASTContext());
  EXPECT_TRUE(Summary);
  std::string Text =
      Summary ? writeSummary(*Summary, P.F,
                             P.Unit->getASTContext().getSourceManager())
              : "";
  forgetDeviceFlowResults();
  return Text;
}

std::optional<FunctionSummary> readBack(const std::string &Text,
                                        const FunctionDecl *Declaration,
                                        ASTContext &Ctx) {
  std::vector<std::string> Opened;
  return readSummary(Text, Declaration, Ctx.getSourceManager(), Opened);
}

TEST(ProjectFactsTest, ResultFollowsAParameterOfTheReadingDeclaration) {
  std::string Text = written(R"cpp(
    torch::Tensor f(torch::Tensor x, torch::Device d) { return x.to(d); })cpp");
  // Another unit, which only declares f.
  Parsed Caller = parse("torch::Tensor f(torch::Tensor x, torch::Device d);");
  std::optional<FunctionSummary> Read =
      readBack(Text, Caller.F, Caller.Unit->getASTContext());
  ASSERT_TRUE(Read);
  EXPECT_TRUE(Read->Result.Where.isKnown());
  EXPECT_TRUE(Read->Result.Where.Devices.isAny());
  EXPECT_EQ(Read->Result.Where.DeviceVar, Caller.F->getParamDecl(1));
}

TEST(ProjectFactsTest, HostResultKeepsItsHistory) {
  std::string Text = written(R"cpp(
    torch::Tensor f(int n) { return torch::ones(n); })cpp");
  Parsed Caller = parse("torch::Tensor f(int n);");
  std::optional<FunctionSummary> Read =
      readBack(Text, Caller.F, Caller.Unit->getASTContext());
  ASSERT_TRUE(Read);
  EXPECT_TRUE(Read->Result.Where.isDefinitelyHost());
  const Origin *Made = Read->Result.findOrigin(Origin::Kind::Factory);
  ASSERT_TRUE(Made);
  EXPECT_EQ(Made->Detail, "torch::ones");
  // Written again from what was read: the same text.
  EXPECT_EQ(writeSummary(*Read, Caller.F,
                         Caller.Unit->getASTContext().getSourceManager()),
            Text);
}

TEST(ProjectFactsTest, WhatDoesNotFitIsRefused) {
  std::string Text = written(R"cpp(
    torch::Tensor f(torch::Tensor x, torch::Device d) { return x.to(d); })cpp");
  // A declaration with fewer parameters than the summary names.
  Parsed Fewer = parse("torch::Tensor f(torch::Tensor x);");
  EXPECT_FALSE(readBack(Text, Fewer.F, Fewer.Unit->getASTContext()));
  EXPECT_FALSE(readBack("{\"r\": 1}", Fewer.F, Fewer.Unit->getASTContext()));
  EXPECT_FALSE(readBack("not json", Fewer.F, Fewer.Unit->getASTContext()));
}

TEST(ProjectFactsTest, OnlyWhatAnotherUnitCanCallHasAName) {
  Parsed P = parse(R"cpp(
    torch::Tensor f(torch::Tensor x) { return x; }
    static torch::Tensor g(torch::Tensor x) { return x; }
    inline torch::Tensor h(torch::Tensor x) { return x; }
    extern "C" int k(int v) { return v; })cpp");
  ASSERT_TRUE(P.F);
  std::optional<std::string> Name = projectName(P.F);
  ASSERT_TRUE(Name);
  EXPECT_EQ(*Name, "_Z1fN2at6TensorE");
  auto Other = [&](const char *Function) {
    auto Matches = match(functionDecl(hasName(Function)).bind("f"),
                         P.Unit->getASTContext());
    return projectName(Matches[0].getNodeAs<FunctionDecl>("f"));
  };
  EXPECT_FALSE(Other("g"));
  EXPECT_FALSE(Other("h"));
  EXPECT_EQ(Other("k"), std::optional<std::string>("k"));
}

TEST(ProjectFactsTest, TwoDifferentDefinitionsAreNoFact) {
  ProjectFacts Project;
  Project.provide(0, {{"_Z5trainv", "A"}});
  EXPECT_EQ(Project.summaryOf("_Z5trainv"), std::optional<std::string>("A"));
  Project.provide(1, {{"_Z5trainv", "A"}});
  EXPECT_EQ(Project.summaryOf("_Z5trainv"), std::optional<std::string>("A"));
  Project.provide(2, {{"_Z5trainv", "B"}});
  EXPECT_FALSE(Project.summaryOf("_Z5trainv"));
  // Unit 2 linted again, without it.
  Project.provide(2, {});
  EXPECT_EQ(Project.summaryOf("_Z5trainv"), std::optional<std::string>("A"));
}

TEST(ProjectFactsTest, AUnitIsStaleWhenAFactItReadChanged) {
  ProjectFacts Project;
  UnitFacts Caller;
  Caller.Used["_Z4maskv"] = ""; // read before anyone provided it
  EXPECT_FALSE(Project.changedSince(Caller));
  Project.provide(0, {{"_Z4maskv", "S1"}});
  EXPECT_TRUE(Project.changedSince(Caller));
  Caller.Used["_Z4maskv"] = factDigest(std::string("S1"));
  EXPECT_FALSE(Project.changedSince(Caller));
  Project.provide(0, {{"_Z4maskv", "S2"}});
  EXPECT_TRUE(Project.changedSince(Caller));
}

} // namespace
