//===--- RuntimeReadingTest.cpp - Reports, matching, replay cases ---------===//

#include "Runtime/ReplayCase.h"
#include "Runtime/RuntimeMatching.h"
#include "Runtime/RuntimeReport.h"

#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"

#include <dlfcn.h>
#include <link.h>

using namespace torchtidy;

namespace {

StaticFinding finding(std::string Check, std::string File, unsigned Line,
                      std::string Level = "bug") {
  StaticFinding F;
  F.Check = std::move(Check);
  F.Level = std::move(Level);
  F.File = std::move(File);
  F.Line = Line;
  F.Column = 1;
  return F;
}

RuntimeEvent event(std::string Kind, std::string File, unsigned Line,
                   uint64_t Count = 1) {
  RuntimeEvent E;
  E.Kind = std::move(Kind);
  E.Op = "aten::mul";
  E.Count = Count;
  // The op's caller first, then its caller: a finding at either is hit.
  E.UserFrames = {{"helper", File, Line, 3}, {"main", "/src/main.cpp", 90, 5}};
  return E;
}

TEST(RuntimeMatchingTest, AMixAtTheFindingsLineConfirmsBothMixChecks) {
  std::vector<RuntimeEvent> Events = {event("mixed_device", "/src/a.cpp", 12)};
  EXPECT_TRUE(findConfirmingEvent(
      finding("libtorch-mixed-device-operands", "/src/a.cpp", 12), Events));
  EXPECT_TRUE(findConfirmingEvent(
      finding("libtorch-missing-target-migration", "/src/a.cpp", 12), Events));
  // The helper's caller is a user frame too.
  EXPECT_TRUE(findConfirmingEvent(
      finding("libtorch-mixed-device-operands", "/src/main.cpp", 90), Events));
  EXPECT_FALSE(findConfirmingEvent(
      finding("libtorch-mixed-device-operands", "/src/a.cpp", 13), Events));
  EXPECT_FALSE(findConfirmingEvent(
      finding("libtorch-graph-retaining-accumulation", "/src/a.cpp", 12),
      Events));
}

TEST(RuntimeMatchingTest, OnlyARepeatedSyncConfirmsASyncInTheLoop) {
  StaticFinding Sync =
      finding("libtorch-host-sync-in-loop", "/src/a.cpp", 7, "performance");
  EXPECT_FALSE(findConfirmingEvent(Sync, {event("sync", "/src/a.cpp", 7, 1)}));
  EXPECT_TRUE(findConfirmingEvent(Sync, {event("sync", "/src/a.cpp", 7, 40)}));
}

TEST(RuntimeMatchingTest, StructuralChecksHaveNoRuntimeEvent) {
  EXPECT_FALSE(runtimeEventKindOf("libtorch-unregistered-module-member"));
  EXPECT_FALSE(runtimeEventKindOf("libtorch-hardcoded-device"));
  EXPECT_EQ(runtimeEventKindOf("libtorch-graph-retaining-accumulation"),
            llvm::StringRef("graph_growth"));
}

TEST(RuntimeMatchingTest, StaticMissesAreEventsNoFindingPredicted) {
  RuntimeEvent Mix = event("mixed_device", "/src/a.cpp", 12);
  EXPECT_TRUE(isStaticMiss(Mix, {}));
  EXPECT_TRUE(isStaticMiss(
      Mix, {finding("libtorch-host-sync-in-loop", "/src/a.cpp", 12)}));
  EXPECT_FALSE(isStaticMiss(
      Mix, {finding("libtorch-mixed-device-operands", "/src/a.cpp", 12)}));
  // One sync (a final loss.item()) is no miss; one per iteration is.
  EXPECT_FALSE(isStaticMiss(event("sync", "/src/a.cpp", 3, 1), {}));
  EXPECT_TRUE(isStaticMiss(event("sync", "/src/a.cpp", 3, 50), {}));
}

TEST(RuntimeMatchingTest, FilesMatchAcrossCheckouts) {
  EXPECT_TRUE(isSameFile("/work/repo/examples/train.cpp",
                         "/root/checkout/examples/train.cpp"));
  EXPECT_FALSE(isSameFile("/work/repo/examples/train.cpp",
                          "/work/repo/tests/train.cpp"));
  EXPECT_FALSE(isSameFile("", "/work/repo/examples/train.cpp"));
}

TEST(ReplayCaseTest, TheOpComesFromTheFindingOrItsLine) {
  std::vector<std::string> Ops = {"add", "mul", "mse_loss", "linear"};
  StaticFinding Mix = finding("libtorch-mixed-device-operands", "a.cpp", 3);
  Mix.Message = "'w' is on the CPU but 'x' is on 'device'; '*' needs all its "
                "tensor operands on one device";
  std::optional<ReplayCase> Case = replayCaseOf(Mix, "", Ops);
  ASSERT_TRUE(Case);
  EXPECT_EQ(Case->CaseKind, ReplayCase::MixedDevice);
  EXPECT_EQ(Case->Op, "mul");

  StaticFinding Target =
      finding("libtorch-missing-target-migration", "a.cpp", 4);
  Target.Column = 41;
  Case = replayCaseOf(
      Target, "    auto loss = torch::mse_loss(prediction, batch.target);",
      Ops);
  ASSERT_TRUE(Case);
  EXPECT_EQ(Case->Op, "mse_loss");

  // Nothing known on the line: an op of two tensors still shows the mix.
  Case = replayCaseOf(Target, "    auto loss = my_loss(prediction, t);", Ops);
  ASSERT_TRUE(Case);
  EXPECT_EQ(Case->Op, "add");
}

TEST(ReplayCaseTest, AccumulationsReplayAsALoopAndSyncsNotAtAll) {
  std::optional<ReplayCase> Case = replayCaseOf(
      finding("libtorch-graph-retaining-accumulation", "a.cpp", 9), "", {});
  ASSERT_TRUE(Case);
  EXPECT_EQ(Case->CaseKind, ReplayCase::Accumulation);
  EXPECT_FALSE(replayCaseOf(finding("libtorch-host-sync-in-loop", "a.cpp", 9),
                            "", {"add"}));
}

__attribute__((noinline)) void *returnAddressInThisTest() {
  return __builtin_return_address(0);
}

TEST(RuntimeReportTest, FramesInTheProgramSymbolizeAndLibrariesAreSkipped) {
  void *ReturnAddress = returnAddressInThisTest();
  Dl_info Info;
  link_map *Map = nullptr;
  ASSERT_TRUE(dladdr1(ReturnAddress, &Info, reinterpret_cast<void **>(&Map),
                      RTLD_DL_LINKMAP));
  uint64_t Offset = reinterpret_cast<uintptr_t>(ReturnAddress) - Map->l_addr;
  llvm::SmallString<256> Self;
  ASSERT_FALSE(llvm::sys::fs::real_path("/proc/self/exe", Self));
  char Hex[32];
  snprintf(Hex, sizeof Hex, "0x%llx", static_cast<unsigned long long>(Offset));
  llvm::json::Object Report{
      {"modules",
       llvm::json::Array{
           llvm::json::Object{{"id", 0},
                              {"path", "/usr/lib/x86_64-linux-gnu/libc.so.6"}},
           llvm::json::Object{{"id", 1}, {"path", Self}}}},
      {"events",
       llvm::json::Array{llvm::json::Object{
           {"kind", "sync"},
           {"frames",
            llvm::json::Array{
                llvm::json::Object{{"module", 0}, {"offset", "0x10"}},
                llvm::json::Object{{"module", 1}, {"offset", Hex}}}}}}}};
  symbolizeReport(Report);
  const llvm::json::Array *Frames =
      (*Report.getArray("events"))[0].getAsObject()->getArray("user_frames");
  ASSERT_TRUE(Frames);
  ASSERT_EQ(Frames->size(), 1u);
  EXPECT_NE((*Frames)[0]
                .getAsObject()
                ->getString("function")
                ->find("FramesInTheProgramSymbolize"),
            llvm::StringRef::npos);
}

} // namespace
