//===--- ProjectFactsTest.cpp - Summaries as data, and the project's map --===//
//
// A summary written by one translation unit is read by another: the round
// trip must keep what callers use (where the result is, relative to which
// parameter; its history and notes), refuse what does not fit, and the
// project's map must tell apart one definition, two that agree and two
// that differ, and an index must hold the same map, or say why it cannot.
//
//===----------------------------------------------------------------------===//

#include "Analysis/ProjectFacts.h"
#include "Analysis/UnitAnalysis.h"
#include "Analysis/SummaryData.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
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

/// Where the defining unit's file is written: a name of this process's
/// own, because ctest runs each test of this file as a process of its own,
/// in parallel, and a reader whose definer was rewritten under it by another
/// test finds its notes nowhere. Removed when the process exits.
const std::string &definerPath() {
  static std::string Path = [] {
    llvm::SmallString<128> Unique;
    int FD = -1;
    std::error_code EC = llvm::sys::fs::createUniqueFile(
        ::testing::TempDir() + "project_facts_definer-%%%%%%%%.cc", FD, Unique);
    EXPECT_FALSE(EC) << EC.message();
    if (!EC)
      llvm::sys::Process::SafelyCloseFileDescriptor(FD);
    return std::string(Unique);
  }();
  static llvm::FileRemover Remover(Path);
  return Path;
}

/// The summary of `f` in Code as data, as the unit defining it writes it.
/// The unit's file is on disk, where another unit reading a note finds it.
std::string written(const std::string &Code) {
  const std::string &Path = definerPath();
  {
    std::error_code EC;
    llvm::raw_fd_ostream Out(Path, EC);
    Out << MiniTorch << Code;
  }
  Parsed P = parse(Code, Path);
  const FunctionSummary *Summary =
      deviceFlowSummaryOf(P.F);
  EXPECT_TRUE(Summary);
  std::string Text =
      Summary ? writeSummary(*Summary, P.F,
                             P.Unit->getASTContext().getSourceManager())
              : "";
  return Text;
}

std::optional<FunctionSummary> readBack(const std::string &Text,
                                        const FunctionDecl *Declaration,
                                        ASTContext &Ctx) {
  std::vector<std::string> Opened;
  return readSummary(Text, Declaration, Ctx.getSourceManager(), Opened);
}

TEST(ProjectFactsTest, ResultAndTransferFollowAParameterOfTheReader) {
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
  // The transfer goes wherever the caller's device says, and is written
  // again as it was read.
  ASSERT_EQ(Read->Transfers.size(), 1u);
  EXPECT_EQ(Read->Transfers[0].Moved.Where.DeviceVar,
            Caller.F->getParamDecl(1));
  EXPECT_TRUE(Read->Transfers[0].Transfer.isValid());
  EXPECT_EQ(Read->Transfers[0].What, ".to()");
  EXPECT_EQ(writeSummary(*Read, Caller.F,
                         Caller.Unit->getASTContext().getSourceManager()),
            Text);
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

TEST(ProjectFactsTest, ACopyBackToTheHostIsNoTransfer) {
  std::string ToHost = written(R"cpp(
    torch::Tensor f(torch::Tensor x, torch::Device d) {
      return x.to(torch::Device(torch::kCPU));
    })cpp");
  Parsed Caller = parse("torch::Tensor f(torch::Tensor x, torch::Device d);");
  std::optional<FunctionSummary> Read =
      readBack(ToHost, Caller.F, Caller.Unit->getASTContext());
  ASSERT_TRUE(Read);
  EXPECT_TRUE(Read->Transfers.empty());
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
  Project.provide("/p/a.cpp", {{"_Z5trainv", "A"}});
  EXPECT_EQ(Project.summaryOf("_Z5trainv"), std::optional<std::string>("A"));
  Project.provide("/p/b.cpp", {{"_Z5trainv", "A"}});
  EXPECT_EQ(Project.summaryOf("_Z5trainv"), std::optional<std::string>("A"));
  Project.provide("/p/c.cpp", {{"_Z5trainv", "B"}});
  EXPECT_FALSE(Project.summaryOf("_Z5trainv"));
  // c.cpp's own (stale) facts are not what c.cpp reads.
  EXPECT_EQ(Project.summaryOf("_Z5trainv", "/p/c.cpp"),
            std::optional<std::string>("A"));
  // c.cpp linted again, without it.
  Project.provide("/p/c.cpp", {});
  EXPECT_EQ(Project.summaryOf("_Z5trainv"), std::optional<std::string>("A"));
  EXPECT_FALSE(Project.summaryOf("_Z4evalv"));
}

TEST(ProjectFactsTest, AUnitIsStaleWhenAFactItReadChanged) {
  ProjectFacts Project;
  UnitFacts Caller;
  Caller.Used["_Z4maskv"] = ""; // read before anyone provided it
  EXPECT_FALSE(Project.changedSince(Caller));
  Project.provide("/p/utils.cpp", {{"_Z4maskv", "S1"}});
  EXPECT_TRUE(Project.changedSince(Caller));
  Caller.Used["_Z4maskv"] = factDigest(std::string("S1"));
  EXPECT_FALSE(Project.changedSince(Caller));
  Project.provide("/p/utils.cpp", {{"_Z4maskv", "S2"}});
  EXPECT_TRUE(Project.changedSince(Caller));
}

/// A file in a fresh temporary directory, removed with it.
struct TempFile {
  llvm::SmallString<128> Dir, Path;
  explicit TempFile(llvm::StringRef Text = "", bool Create = true) {
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("project-facts", Dir));
    Path = Dir;
    llvm::sys::path::append(Path, "facts.json");
    if (!Create)
      return;
    std::error_code EC;
    llvm::raw_fd_ostream Out(Path, EC);
    EXPECT_FALSE(EC);
    Out << Text;
  }
  ~TempFile() { llvm::sys::fs::remove_directories(Dir); }
};

TEST(ProjectFactsTest, AnIndexHoldsEveryUnitsSummariesAsTheyWereWritten) {
  ProjectFacts Project;
  // Summaries are JSON text: quotes and newlines must come back as they
  // were, or the digests their users recorded would not match.
  std::string Summary = "{\"r\":{\"h\":[[\"/p/u.cpp\",12]]}}\n";
  Project.provide("/p/utils.cpp", {{"_Z4maskv", Summary}, {"_Z1fv", "F"}});
  Project.provide("/p/net.cpp", {{"_Z4maskv", Summary}});
  Project.provide("/p/train.cpp", {});
  std::string Text;
  llvm::raw_string_ostream Out(Text);
  Project.writeIndex(Out);

  TempFile Index(Text);
  ProjectFacts Read;
  ASSERT_FALSE(llvm::errorToBool(Read.readIndex(Index.Path)));
  EXPECT_EQ(Read.unitCount(), 3u);
  EXPECT_EQ(Read.factCount(), 2u);
  EXPECT_EQ(Read.summaryOf("_Z4maskv"), std::optional<std::string>(Summary));
  EXPECT_EQ(Read.summaryOf("_Z1fv"), std::optional<std::string>("F"));
  EXPECT_FALSE(Read.summaryOf("_Z1fv", "/p/utils.cpp"));
  // Written again, the same text: an index does not depend on the order
  // units were provided in.
  std::string Again;
  llvm::raw_string_ostream AgainOut(Again);
  Read.writeIndex(AgainOut);
  EXPECT_EQ(Text, Again);
}

TEST(ProjectFactsTest, WhatIsNotAnIndexIsAnErrorThatSaysWhy) {
  auto ErrorOf = [](llvm::StringRef Text, bool Create = true) {
    TempFile Index(Text, Create);
    ProjectFacts Read;
    return llvm::toString(Read.readIndex(Index.Path));
  };
  EXPECT_NE(ErrorOf("", /*Create=*/false).find("cannot be read"),
            std::string::npos);
  EXPECT_NE(ErrorOf("{").find("is not JSON"), std::string::npos);
  EXPECT_NE(ErrorOf("{\"units\": []}").find("is not an index"),
            std::string::npos);
  EXPECT_NE(ErrorOf("{\"torchtidy-project-facts\": 2, \"units\": []}")
                .find("version 2"),
            std::string::npos);
  EXPECT_NE(ErrorOf("{\"torchtidy-project-facts\": 1, \"units\": [{}]}")
                .find("without \"file\""),
            std::string::npos);
  EXPECT_NE(ErrorOf("{\"torchtidy-project-facts\": 1, \"units\": [{\"file\": "
                    "\"a.cpp\", \"summaries\": {\"f\": 1}}]}")
                .find("not a string"),
            std::string::npos);
  EXPECT_EQ(ErrorOf("{\"torchtidy-project-facts\": 1, \"units\": []}"), "");
}

TEST(ProjectFactsTest, AnIndexNamedByAnOptionIsReadOnce) {
  TempFile Index("{\"torchtidy-project-facts\": 1, \"units\": [{\"file\": "
                 "\"/p/a.cpp\", \"summaries\": {\"_Z1fv\": \"F\"}}]}");
  std::string Error;
  const ProjectFacts *First = projectFactsIndex(Index.Path, Error);
  ASSERT_TRUE(First) << Error;
  EXPECT_EQ(First->summaryOf("_Z1fv"), std::optional<std::string>("F"));
  // Every translation unit (and every check) that names it gets the same.
  EXPECT_EQ(projectFactsIndex(Index.Path, Error), First);
  TempFile Missing("", /*Create=*/false);
  EXPECT_FALSE(projectFactsIndex(Missing.Path, Error));
  EXPECT_NE(Error.find("cannot be read"), std::string::npos);
}

} // namespace
