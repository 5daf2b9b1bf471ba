//===--- UnitAnalysisTest.cpp - One owner for what a unit's analysis knows ===//
//
// What the analysis learns of a translation unit points into that unit's
// AST. It must live exactly as long as the AST: answered for the unit's own
// declarations only, never for a later unit's declaration at a reused
// address, and gone with the AST whatever asked for it.
//
//===----------------------------------------------------------------------===//

#include "Analysis/ProjectFacts.h"
#include "Analysis/UnitAnalysis.h"

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

std::unique_ptr<ASTUnit> parse(const std::string &Code) {
  std::unique_ptr<ASTUnit> Unit = tooling::buildASTFromCodeWithArgs(
      std::string(MiniTorch) + Code, {"-std=c++17"}, "unit.cc");
  EXPECT_TRUE(Unit);
  return Unit;
}

template <typename NodeT>
const NodeT *named(ASTUnit &Unit, const std::string &Name) {
  auto Matches = match(namedDecl(hasName(Name)).bind("d"), Unit.getASTContext());
  EXPECT_FALSE(Matches.empty()) << Name;
  for (const BoundNodes &Match : Matches)
    if (const auto *Node = Match.getNodeAs<NodeT>("d"))
      return Node;
  return nullptr;
}

/// A rollout storage whose own `to(device)` moves its tensor, or leaves it
/// (MovesIt false): the two differ in nothing their declarations allocate.
std::string storage(bool MovesIt) {
  return std::string(R"cpp(
struct Storage {
  torch::Tensor observations;
  void to(torch::Device device) {
    observations = )cpp") +
         (MovesIt ? "observations.to(device)" : "observations.detach()") +
         R"cpp(;
  }
};
)cpp";
}

TEST(UnitAnalysisTest, LivesAsLongAsItsAst) {
  size_t Before = UnitAnalysis::liveUnitCount();
  std::unique_ptr<ASTUnit> Unit = parse(storage(true));
  EXPECT_EQ(UnitAnalysis::liveUnitCount(), Before) << "created before asked";
  const auto *Field = named<FieldDecl>(*Unit, "observations");
  ASSERT_TRUE(Field);
  EXPECT_TRUE(movesWithItsObject(Field));
  EXPECT_EQ(UnitAnalysis::liveUnitCount(), Before + 1);
  Unit.reset();
  EXPECT_EQ(UnitAnalysis::liveUnitCount(), Before);
}

TEST(UnitAnalysisTest, EachUnitAnswersForItsOwnDeclarations) {
  std::unique_ptr<ASTUnit> Moving = parse(storage(true));
  std::unique_ptr<ASTUnit> Keeping = parse(storage(false));
  EXPECT_TRUE(movesWithItsObject(named<FieldDecl>(*Moving, "observations")));
  EXPECT_FALSE(movesWithItsObject(named<FieldDecl>(*Keeping, "observations")));
  EXPECT_TRUE(isDeviceOwningClass(named<CXXRecordDecl>(*Moving, "Storage")));
  EXPECT_FALSE(isDeviceOwningClass(named<CXXRecordDecl>(*Keeping, "Storage")));
}

// The shape that went wrong when the answers were kept per thread until a
// check chose to clear them: one unit after another, the same code but for
// what the answer rests on. Whatever addresses the second unit's
// declarations get, its answer is its own.
TEST(UnitAnalysisTest, ALaterUnitIsNotAnsweredFromAnEarlierOne) {
  for (int Round = 0; Round < 40; ++Round) {
    bool MovesIt = Round % 2 == 0;
    std::unique_ptr<ASTUnit> Unit = parse(storage(MovesIt));
    EXPECT_EQ(movesWithItsObject(named<FieldDecl>(*Unit, "observations")),
              MovesIt)
        << "round " << Round;
  }
}

// What a unit read of its project is its own record, taken once; a unit
// reads the facts that were set when the analysis first asked about it, as
// a front-end sets them around each unit it runs.
TEST(UnitAnalysisTest, UsedFactsAreTheUnitsOwn) {
  ProjectFacts Project;
  Project.provide("/elsewhere/helper.cc", {{"_Z6helperv", "not a summary"}});
  const char *Caller = "torch::Tensor helper();\n"
                       "void f() { auto x = helper(); }\n";
  useProjectFacts(&Project);
  std::unique_ptr<ASTUnit> Reader = parse(Caller);
  EXPECT_EQ(projectSummaryOf(named<FunctionDecl>(*Reader, "helper")), nullptr)
      << "a fact that is no summary is none";
  useProjectFacts(nullptr);
  std::unique_ptr<ASTUnit> Other = parse(Caller);
  EXPECT_EQ(projectSummaryOf(named<FunctionDecl>(*Other, "helper")), nullptr);

  std::map<std::string, std::string> Used =
      UnitAnalysis::of(Reader->getASTContext()).takeUsedFacts();
  ASSERT_EQ(Used.count("_Z6helperv"), 1u);
  EXPECT_EQ(Used["_Z6helperv"], factDigest(std::string("not a summary")));
  EXPECT_TRUE(UnitAnalysis::of(Reader->getASTContext()).takeUsedFacts().empty())
      << "taken once";
  EXPECT_TRUE(UnitAnalysis::of(Other->getASTContext()).takeUsedFacts().empty())
      << "a unit started without facts reads none";
}

} // namespace
