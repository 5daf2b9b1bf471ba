//===--- PlacementTest.cpp - The device lattice ---------------------------===//

#include "Analysis/Placement.h"

#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace torchtidy;

namespace {

Device dev(const char *Text) { return *Device::parse(Text); }
Placement on(std::initializer_list<const char *> Devices) {
  DeviceSet Set;
  for (const char *D : Devices)
    Set = Set.join(DeviceSet::of(dev(D)));
  return Placement::on(Set);
}

TEST(DeviceTest, ParsesLibTorchDeviceStrings) {
  EXPECT_EQ(dev("cuda").str(), "cuda");
  EXPECT_EQ(dev("cuda:1").Index, 1);
  EXPECT_EQ(dev("CPU").Type, "cpu");
  EXPECT_FALSE(Device::parse("cuda:x"));
  EXPECT_FALSE(Device::parse(""));
  EXPECT_FALSE(Device::parse("cu da"));
}

TEST(DeviceTest, IndexMinusOneMatchesAnyIndexOfItsType) {
  EXPECT_FALSE(dev("cuda").conflictsWith(dev("cuda:1")));
  EXPECT_TRUE(dev("cuda:0").conflictsWith(dev("cuda:1")));
  EXPECT_TRUE(dev("cuda").conflictsWith(dev("cpu")));
  EXPECT_TRUE(dev("meta").conflictsWith(dev("cpu")));
  EXPECT_FALSE(dev("cpu").conflictsWith(dev("cpu")));
}

TEST(DeviceSetTest, JoinIsSortedUnion) {
  DeviceSet S = DeviceSet::of(dev("cuda")).join(DeviceSet::of(dev("cpu")));
  ASSERT_EQ(S.devices().size(), 2u);
  EXPECT_EQ(S.devices()[0].Type, "cpu");
  EXPECT_EQ(S, DeviceSet::of(dev("cpu")).join(DeviceSet::of(dev("cuda"))));
  EXPECT_EQ(S.describe(), "'cpu' or 'cuda'");
  EXPECT_TRUE(S.join(DeviceSet::anyDevice()).isAny());
  EXPECT_EQ(DeviceSet::of(dev("cpu")).describe(), "the CPU");
}

TEST(PlacementTest, UnsetIsBottomAndUnknownIsTop) {
  Placement Host = Placement::host();
  EXPECT_EQ(Placement::unset().join(Host), Host);
  EXPECT_EQ(Host.join(Placement::unset()), Host);
  EXPECT_EQ(Host.join(Placement::unknown()).State,
            Placement::Knowledge::Unknown);
}

TEST(PlacementTest, JoinKeepsTheDeviceVariableOnlyWhenBothAgree) {
  Placement A = on({"cuda"});
  A.DeviceVar = reinterpret_cast<const clang::ValueDecl *>(0x10);
  Placement B = A;
  EXPECT_EQ(A.join(B).DeviceVar, A.DeviceVar);
  Placement C = on({"cpu"});
  Placement J = A.join(C);
  EXPECT_EQ(J.DeviceVar, nullptr);
  EXPECT_EQ(J.Devices.devices().size(), 2u);
}

TEST(ConflictTest, HostAgainstAcceleratorConflicts) {
  EXPECT_TRUE(mayConflict(Placement::host(), on({"cuda"})));
  EXPECT_TRUE(mayConflict(on({"meta"}), Placement::host()));
  EXPECT_FALSE(mayConflict(Placement::host(), Placement::host()));
  EXPECT_FALSE(mayConflict(on({"cuda"}), on({"cuda:0"})));
  EXPECT_TRUE(mayConflict(on({"cuda:0"}), on({"cuda:1"})));
}

TEST(ConflictTest, HostAgainstCudaIfAvailableConflictsOnTheCudaPath) {
  EXPECT_TRUE(mayConflict(Placement::host(), on({"cpu", "cuda"})));
}

TEST(ConflictTest, TheSameDeviceVariableNeverConflicts) {
  auto *Var = reinterpret_cast<const clang::ValueDecl *>(0x10);
  Placement A = Placement::on(DeviceSet::anyDevice(), Var);
  Placement B = Placement::on(DeviceSet::anyDevice(), Var);
  EXPECT_FALSE(mayConflict(A, B));
  Placement C = on({"cpu", "cuda"});
  C.DeviceVar = Var;
  Placement D = C;
  EXPECT_FALSE(mayConflict(C, D));
}

TEST(ConflictTest, CallerChosenDeviceConflictsOnlyWithPinnedHost) {
  auto *Var = reinterpret_cast<const clang::ValueDecl *>(0x10);
  Placement Caller = Placement::on(DeviceSet::anyDevice(), Var);
  EXPECT_TRUE(mayConflict(Placement::host(), Caller));
  EXPECT_FALSE(mayConflict(on({"cuda"}), Caller));
}

TEST(ConflictTest, TwoUncertainSidesGetTheBenefitOfTheDoubt) {
  EXPECT_FALSE(mayConflict(on({"cpu", "cuda"}), on({"cpu", "cuda"})));
  EXPECT_FALSE(mayConflict(Placement::unknown(), Placement::host()));
  EXPECT_FALSE(mayConflict(Placement::unset(), on({"cuda"})));
}

TEST(GradHistoryTest, CarriesOnSomePathWins) {
  EXPECT_EQ(join(GradHistory::None, GradHistory::Carries),
            GradHistory::Carries);
  EXPECT_EQ(join(GradHistory::None, GradHistory::None), GradHistory::None);
  EXPECT_EQ(join(GradHistory::None, GradHistory::Unknown),
            GradHistory::Unknown);
}

TEST(GradHistoryTest, ALeafKeepsNoGraphUntilAPathComputesFromIt) {
  EXPECT_EQ(join(GradHistory::Leaf, GradHistory::Leaf), GradHistory::Leaf);
  EXPECT_EQ(join(GradHistory::Leaf, GradHistory::Carries),
            GradHistory::Carries);
  EXPECT_EQ(join(GradHistory::Leaf, GradHistory::None), GradHistory::Unknown);
}

TEST(PlacementTest, FromParameterSurvivesOnlyJoinsWithTheSameParameter) {
  std::unique_ptr<clang::ASTUnit> Unit =
      clang::tooling::buildASTFromCode("void f(int a, int b);");
  const auto *F = clang::cast<clang::FunctionDecl>(
      Unit->getASTContext().getTranslationUnitDecl()->lookup(
          &Unit->getASTContext().Idents.get("f")).front());
  Placement A = Placement::host(), B = Placement::host();
  A.FromParameter = F->getParamDecl(0);
  B.FromParameter = F->getParamDecl(1);
  EXPECT_EQ(A.join(A).FromParameter, F->getParamDecl(0));
  EXPECT_EQ(A.join(B).FromParameter, nullptr);
  EXPECT_EQ(A.join(Placement::host()).FromParameter, nullptr);
  EXPECT_NE(A, Placement::host());
}

TEST(AbstractValueTest, AnElementThatMayBeZeroDimIsNeverTheHostSide) {
  AbstractValue Element;
  Element.Where = Placement::host();
  Element.MaybeZeroDim = true;
  Element.Rank = 1;
  AbstractValue Row;
  Row.Where = Placement::host();
  Row.Rank = 1;
  EXPECT_TRUE(Element.isHostScalar());
  EXPECT_FALSE(Row.isHostScalar());
  // A path where it is surely not 0-dim is a path that can mix.
  EXPECT_FALSE(Element.join(Row).isHostScalar());
  EXPECT_EQ(Element.join(Row).Rank, 1u);
  AbstractValue Matrix = Row;
  Matrix.Rank = 2;
  EXPECT_FALSE(Row.join(Matrix).Rank.has_value());
}

TEST(AbstractValueTest, ZeroDimOnlyWhenEveryPathIsZeroDim) {
  AbstractValue Scalar;
  Scalar.Where = Placement::host();
  Scalar.ZeroDim = true;
  AbstractValue Vector;
  Vector.Where = Placement::host();
  EXPECT_TRUE(Scalar.isHostScalar());
  EXPECT_FALSE(Scalar.join(Vector).ZeroDim);
  EXPECT_TRUE(Scalar.join(AbstractValue()).ZeroDim);
}

TEST(AbstractValueTest, OriginsAreCappedAndNotRepeated) {
  AbstractValue V;
  for (int I = 0; I < 5; ++I)
    V.addOrigin({Origin::Kind::Migration,
                 clang::SourceLocation::getFromRawEncoding(I + 1), "x", "",
                 ""});
  EXPECT_EQ(V.Origins.size(), AbstractValue::MaxOrigins);
  EXPECT_EQ(V.Origins.front().Loc.getRawEncoding(), 5u);
  V.addOrigin(V.Origins.back());
  EXPECT_EQ(V.Origins.size(), AbstractValue::MaxOrigins);
  EXPECT_EQ(V.Origins.front().Loc.getRawEncoding(), 3u);
}

AbstractValue valueOn(Placement Where, GradHistory Grad) {
  AbstractValue V;
  V.Where = std::move(Where);
  V.Grad = Grad;
  return V;
}

TEST(TupleTest, ElementsKeepTheirOwnDevices) {
  AbstractValue Tuple =
      AbstractValue::tupleOf({valueOn(Placement::host(), GradHistory::None),
                              valueOn(on({"cuda"}), GradHistory::Carries)});
  EXPECT_TRUE(Tuple.element(0).Where.isDefinitelyHost());
  EXPECT_EQ(Tuple.element(1).Where, on({"cuda"}));
  EXPECT_EQ(Tuple.element(1).Grad, GradHistory::Carries);
  // The tuple as one value: its elements disagree, so it says nothing.
  EXPECT_FALSE(Tuple.Where.isKnown());
  EXPECT_EQ(Tuple.Grad, GradHistory::Unknown);
}

TEST(TupleTest, AgreeingElementsMakeTheTuplesOwnValue) {
  AbstractValue Tuple =
      AbstractValue::tupleOf({valueOn(on({"cuda"}), GradHistory::Carries),
                              valueOn(on({"cuda"}), GradHistory::Carries)});
  EXPECT_EQ(Tuple.Where, on({"cuda"}));
  EXPECT_EQ(Tuple.Grad, GradHistory::Carries);
}

TEST(TupleTest, WithoutElementsEveryElementIsTheWhole) {
  // A module's forward() returning a tuple: one value for all.
  AbstractValue Output = valueOn(on({"cuda"}), GradHistory::Carries);
  Output.ZeroDim = true;
  AbstractValue Third = Output.element(2);
  EXPECT_EQ(Third.Where, on({"cuda"}));
  EXPECT_EQ(Third.Grad, GradHistory::Carries);
  EXPECT_FALSE(Third.ZeroDim);
}

TEST(TupleTest, JoinIsElementWiseOnlyWhileBothSidesKnowTheElements) {
  AbstractValue A =
      AbstractValue::tupleOf({valueOn(Placement::host(), GradHistory::None),
                              valueOn(on({"cuda"}), GradHistory::None)});
  AbstractValue B =
      AbstractValue::tupleOf({valueOn(Placement::host(), GradHistory::Carries),
                              valueOn(on({"cuda"}), GradHistory::None)});
  AbstractValue Joined = A.join(B);
  ASSERT_EQ(Joined.Elements.size(), 2u);
  EXPECT_TRUE(Joined.element(0).Where.isDefinitelyHost());
  EXPECT_EQ(Joined.element(0).Grad, GradHistory::Carries);
  // Bottom on one side: the other side's elements.
  EXPECT_EQ(AbstractValue().join(A).Elements.size(), 2u);
  // A tuple of unknown make on one path: the elements are lost.
  EXPECT_TRUE(A.join(AbstractValue::unknown()).Elements.empty());
  EXPECT_NE(A, B);
}

TEST(GradHistoryTest, APathNotTakenYetSaysNothing) {
  // A function's returns are joined from an unset start: one return of a
  // value without history makes a result without history.
  AbstractValue Sample;
  Sample.Where = Placement::host();
  Sample.Grad = GradHistory::None;
  EXPECT_EQ(AbstractValue().join(Sample).Grad, GradHistory::None);
  EXPECT_EQ(Sample.join(AbstractValue()).Grad, GradHistory::None);
  AbstractValue Unknown = AbstractValue::unknown();
  EXPECT_EQ(Sample.join(Unknown).Grad, GradHistory::Unknown);
}

TEST(HostMemoryTest, PathsThatDisagreeAreUnknown) {
  EXPECT_EQ(join(HostMemory::Pinned, HostMemory::Pinned), HostMemory::Pinned);
  EXPECT_EQ(join(HostMemory::Pageable, HostMemory::Pinned),
            HostMemory::Unknown);
  EXPECT_EQ(join(HostMemory::Unknown, HostMemory::Pageable),
            HostMemory::Unknown);
  AbstractValue Pageable;
  Pageable.Where = Placement::host();
  Pageable.Memory = HostMemory::Pageable;
  AbstractValue Pinned = Pageable;
  Pinned.Memory = HostMemory::Pinned;
  EXPECT_EQ(Pageable.join(Pinned).Memory, HostMemory::Unknown);
  EXPECT_EQ(Pageable.join(Pageable).Memory, HostMemory::Pageable);
  // A path where the tensor is not assigned yet says nothing.
  EXPECT_EQ(AbstractValue().join(Pinned).Memory, HostMemory::Pinned);
  EXPECT_NE(Pageable.join(Pinned), Pageable);
}

} // namespace
