//===--- ModelTest.cpp - What LibTorch APIs do, fact by fact --------------===//
//
// The LibTorch model (lib/Model) on expressions written against a miniature
// LibTorch: each test parses a few lines, takes the argument of every call
// of `use(...)` in order, and asks one facet what it is. A fact added to the
// model gets a test here, next to the lit cases that show a check using it
// on the real headers (docs/contributing.md).
//
//===----------------------------------------------------------------------===//

#include "Model/Devices.h"
#include "Model/Distributed.h"
#include "Model/Errors.h"
#include "Model/TensorOps.h"
#include "Model/TorchTypes.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "gtest/gtest.h"

#include "MiniTorch.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace torchtidy;
using torchtidy_test::MiniTorch;

namespace {

/// What the snippets pass their expressions to, and the parts of LibTorch's
/// API that only these tests need.
constexpr const char *UseDeclarations = R"cpp(
namespace at {
Tensor nonzero(const Tensor &);
Tensor randn(int n);
Tensor empty(int n);
bool hasXPU();
} // namespace at
namespace torch {
namespace cuda { bool is_available(); int device_count(); }
namespace mps { bool is_available(); }
} // namespace torch
namespace std {
// Every method returns something, so that use() can take it.
template <class T> struct vector {
  int push_back(const T &);
  int clear();
  int reserve(unsigned long);
  int begin();
  T &operator[](unsigned long);
  T &back();
  int swap(vector &);
};
template <class... T> struct tuple {};
} // namespace std
namespace torch {
at::Tensor stack(const std::vector<at::Tensor> &);
} // namespace torch
namespace mine {
at::Tensor make();
bool is_available();
int quiet() noexcept;
} // namespace mine
void use(const at::Tensor &);
void use(c10::Device);
void use(c10::DeviceType);
void use(const char *);
void use(bool);
void use(int);
void use(double);
)cpp";

/// A parsed snippet and the arguments of its calls of `use`, in source order.
struct Snippet {
  std::unique_ptr<ASTUnit> Unit;
  std::vector<const Expr *> Args;

  const Expr *arg(size_t I) const {
    return I < Args.size() ? Args[I]->IgnoreImplicit() : nullptr;
  }
  const CallExpr *call(size_t I) const {
    return dyn_cast_or_null<CallExpr>(arg(I));
  }
};

Snippet parse(const std::string &Code) {
  Snippet U;
  U.Unit = tooling::buildASTFromCodeWithArgs(
      std::string(MiniTorch) + UseDeclarations + Code, {"-std=c++17"});
  EXPECT_TRUE(U.Unit);
  if (!U.Unit)
    return U;
  // A snippet that does not compile leaves out what a test asks about.
  EXPECT_FALSE(U.Unit->getDiagnostics().hasErrorOccurred());
  for (const BoundNodes &Node :
       match(callExpr(callee(functionDecl(hasName("::use"))),
                      hasArgument(0, expr().bind("arg"))),
             U.Unit->getASTContext()))
    U.Args.push_back(Node.getNodeAs<Expr>("arg"));
  // The matches do not come in source order (a call with another overload
  // of use() may come first).
  const SourceManager &SM = U.Unit->getSourceManager();
  llvm::sort(U.Args, [&](const Expr *A, const Expr *B) {
    return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
  });
  return U;
}

/// The declaration of the parameter or variable called \p Name.
const ValueDecl *declNamed(const Snippet &U, llvm::StringRef Name) {
  auto Matches =
      match(valueDecl(hasName(Name)).bind("d"), U.Unit->getASTContext());
  return Matches.empty() ? nullptr : Matches[0].getNodeAs<ValueDecl>("d");
}

/// The variable an expression names, under implicit conversions.
llvm::StringRef nameOf(const Expr *E) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreImplicit());
  return Ref ? Ref->getDecl()->getName() : "";
}

/// One expression and what a facet should say of it.
template <typename T> struct Case {
  const char *Expression;
  T Expected;
};

/// Parses `void f(<Parameters>) { use(<expression>); ... }` with one call of
/// use() a case, and expects \p Facet to say of each call's argument what
/// its case expects.
template <typename T, size_t N, typename FacetFn>
void expectEach(llvm::StringRef Parameters, const Case<T> (&Cases)[N],
                FacetFn Facet) {
  std::string Code = "void f(" + Parameters.str() + ") {\n";
  for (const Case<T> &C : Cases)
    Code += "  use(" + std::string(C.Expression) + ");\n";
  Snippet U = parse(Code + "}\n");
  ASSERT_EQ(U.Args.size(), N);
  for (size_t I = 0; I < N; ++I)
    EXPECT_EQ(Facet(U, I), Cases[I].Expected) << Cases[I].Expression;
}

TEST(TorchTypesTest, ClassifiesThroughAliasesReferencesAndQualifiers) {
  Snippet U = parse(R"cpp(
    using Batch = torch::Tensor;
    void f(const Batch &tensor, torch::Device device, c10::DeviceType type,
           c10::TensorOptions options, std::vector<at::Tensor> &tensors,
           std::vector<int> ints, int number) {})cpp");
  auto TypeOf = [&](llvm::StringRef Name) {
    return declNamed(U, Name)->getType();
  };
  EXPECT_EQ(classifyType(TypeOf("tensor")), TorchValueKind::Tensor);
  EXPECT_EQ(classifyType(TypeOf("device")), TorchValueKind::DeviceSpec);
  EXPECT_EQ(classifyType(TypeOf("type")), TorchValueKind::DeviceSpec);
  EXPECT_EQ(classifyType(TypeOf("options")), TorchValueKind::DeviceSpec);
  EXPECT_TRUE(isTensorOptionsType(TypeOf("options")));
  EXPECT_FALSE(isTensorOptionsType(TypeOf("device")));
  EXPECT_EQ(classifyType(TypeOf("tensors")), TorchValueKind::TensorList);
  EXPECT_EQ(classifyType(TypeOf("ints")), TorchValueKind::None);
  EXPECT_EQ(classifyType(TypeOf("number")), TorchValueKind::None);
}

TEST(TorchTypesTest, KnowsLibTorchsNamespacesAndHeaders) {
  Snippet U = parse("void f() { use(torch::ones(2)); use(mine::make()); }");
  ASSERT_EQ(U.Args.size(), 2u);
  EXPECT_TRUE(isInLibTorchNamespace(U.call(0)->getDirectCallee()));
  EXPECT_FALSE(isInLibTorchNamespace(U.call(1)->getDirectCallee()));
  EXPECT_TRUE(isLibTorchHeaderName("torch/torch.h"));
  EXPECT_TRUE(isLibTorchHeaderName("ATen/ATen.h"));
  EXPECT_TRUE(isLibTorchHeaderName("c10/core/Device.h"));
  EXPECT_FALSE(isLibTorchHeaderName("mylib/torch.h"));
  EXPECT_FALSE(isLibTorchHeaderName("vector"));
}

/// A device type name ("cuda"), or none.
using MaybeDeviceType = std::optional<llvm::StringRef>;

TEST(DevicesTest, SpelledDeviceTypes) {
  const Case<MaybeDeviceType> Cases[] = {
      {"torch::kCUDA", "cuda"},
      {"c10::DeviceType::Meta", "meta"},
      {"torch::Device(torch::kCPU, 0)", "cpu"},
      {"\"cuda:1\"", "cuda"},
      {"torch::Device(\"xpu\")", "xpu"},
      // A variable is where the analysis follows the device, not the model.
      {"variable", std::nullopt},
      {"\"gpu\"", std::nullopt},
  };
  expectEach("torch::Device variable", Cases, [](const Snippet &U, size_t I) {
    return spelledDeviceType(U.arg(I));
  });
}

TEST(DevicesTest, WhereAMigrationSendsATensor) {
  const Case<TransferTarget> Cases[] = {
      {"x.cuda()", TransferTarget::OffHost},
      {"x.cpu()", TransferTarget::Host},
      {"x.to(torch::Device(torch::kCPU))", TransferTarget::Host},
      {"x.to(torch::Device(\"cuda:0\"))", TransferTarget::OffHost},
      {"x.to(device)", TransferTarget::Unknown},
      {"x.detach()", TransferTarget::None},
      {"x + x", TransferTarget::None},
  };
  expectEach(
      "torch::Tensor x, torch::Device device", Cases,
      [](const Snippet &U, size_t I) { return transferTarget(U.call(I)); });
}

TEST(DevicesTest, CallsThatWaitForTheDevice) {
  const Case<bool> Cases[] = {
      {"x.item()", true},  {"x.cpu()", true},  {"at::nonzero(x)", true},
      {"x.cuda()", false}, {"x.sum()", false},
  };
  expectEach("torch::Tensor x", Cases, [](const Snippet &U, size_t I) {
    return synchronizesWithHost(U.call(I));
  });
}

TEST(DevicesTest, AcceleratorQueries) {
  const Case<MaybeDeviceType> Cases[] = {
      {"torch::cuda::is_available()", "cuda"},
      {"torch::cuda::device_count()", "cuda"},
      {"torch::mps::is_available()", "mps"},
      {"at::hasXPU()", "xpu"},
      // The same name outside LibTorch asks LibTorch nothing.
      {"mine::is_available()", std::nullopt},
  };
  expectEach("", Cases, [](const Snippet &U, size_t I) {
    return queriedAccelerator(U.call(I));
  });
  EXPECT_EQ(availabilityQueryFor("cuda"), "torch::cuda::is_available()");
}

TEST(TensorOpsTest, ClassifiesCallsByWhatTheyDoToPlacement) {
  const Case<TorchCallKind> Cases[] = {
      {"torch::ones(2)", TorchCallKind::Factory},
      {"x.to(torch::kCUDA)", TorchCallKind::Migration},
      {"x.detach()", TorchCallKind::Detach},
      {"x.item()", TorchCallKind::ReadScalar},
      // A full reduction makes a 0-dim tensor; one over a dimension does not.
      {"x.sum()", TorchCallKind::Reduction},
      {"x.sum(0)", TorchCallKind::Op},
      {"x + y", TorchCallKind::Op},
      // A tensor from the user's own function is not LibTorch's factory.
      {"mine::make()", TorchCallKind::Other},
  };
  expectEach(
      "torch::Tensor x, torch::Tensor y", Cases,
      [](const Snippet &U, size_t I) { return classifyCall(U.call(I)); });
}

TEST(TensorOpsTest, CallsThatGiveTheSameResultForTheSameOperands) {
  const Case<bool> Cases[] = {
      {"x.permute(1, 0)", true},
      {"x + y", true},
      {"at::ones(2)", true},
      {"x.cpu()", true},
      {"x.item()", true},
      // A copy to a device, an in-place op, a random draw, uninitialised
      // memory, and a function LibTorch does not define.
      {"x.to(device)", false},
      {"x.cuda()", false},
      {"x.add_(y)", false},
      {"at::randn(2)", false},
      {"at::empty(2)", false},
      {"mine::make()", false},
  };
  expectEach("torch::Tensor x, torch::Tensor y, torch::Device device", Cases,
             [](const Snippet &U, size_t I) {
               return isRepeatableLibTorchCall(U.call(I));
             });
}

TEST(TensorOpsTest, TensorOperandsInSourceOrder) {
  Snippet U = parse(R"cpp(
    void f(torch::Tensor x, torch::Tensor y) {
      use(x + y);
      use(x.to(torch::kCUDA));
      use(torch::ones(2));
    })cpp");
  ASSERT_EQ(U.Args.size(), 3u);
  auto Operands = tensorOperands(U.call(0));
  ASSERT_EQ(Operands.size(), 2u);
  EXPECT_EQ(nameOf(Operands[0]), "x");
  EXPECT_EQ(nameOf(Operands[1]), "y");
  // The object of a method call is its first operand.
  EXPECT_EQ(tensorOperands(U.call(1)).size(), 1u);
  EXPECT_TRUE(tensorOperands(U.call(2)).empty());
}

TEST(TorchTypesTest, ContainersOfTensorsOfTuplesAndOfRecordsHoldingTensors) {
  Snippet U = parse(R"cpp(
    struct Transition { torch::Tensor state; float reward; };
    struct Counts { int n; };
    std::vector<torch::Tensor> tensors;
    std::vector<std::tuple<torch::Tensor, int>> tuples;
    std::vector<Transition> transitions;
    std::vector<Counts> counts;
    std::vector<int> numbers;
    Transition transition;
  )cpp");
  auto TypeOf = [&](llvm::StringRef Name) {
    const ValueDecl *D = declNamed(U, Name);
    return D ? D->getType() : QualType();
  };
  EXPECT_TRUE(isTensorContainerType(TypeOf("tensors")));
  EXPECT_TRUE(isTensorContainerType(TypeOf("tuples")));
  EXPECT_TRUE(isTensorContainerType(TypeOf("transitions")));
  EXPECT_FALSE(isTensorContainerType(TypeOf("counts")));
  EXPECT_FALSE(isTensorContainerType(TypeOf("numbers")));
  EXPECT_TRUE(isTensorRecordType(TypeOf("transition")));
  EXPECT_FALSE(isTensorRecordType(TypeOf("tensors")));
}

TEST(TensorOpsTest, WhatContainerMethodsDoToTheirElements) {
  const Case<TorchCallKind> Cases[] = {
      {"v.push_back(x)", TorchCallKind::ContainerAppend},
      {"v.clear()", TorchCallKind::ContainerClear},
      {"v.reserve(4)", TorchCallKind::ContainerKeep},
      {"v.begin()", TorchCallKind::ContainerIterator},
      // Unknown to the model: it may change what the container holds.
      {"v.swap(w)", TorchCallKind::Other},
  };
  expectEach("std::vector<torch::Tensor> v, std::vector<torch::Tensor> w, "
             "torch::Tensor x",
             Cases,
             [](const Snippet &U, size_t I) { return classifyCall(U.call(I)); });
}

TEST(TensorOpsTest, ElementsAndContainerOperands) {
  Snippet U = parse(R"cpp(
    void f(std::vector<torch::Tensor> v, torch::Tensor x) {
      use(v[0]);
      use(v.back());
      use(x.detach());
      use(torch::stack(v));
    })cpp");
  ASSERT_EQ(U.Args.size(), 4u);
  EXPECT_EQ(nameOf(containerOfElement(U.arg(0))), "v");
  EXPECT_EQ(nameOf(containerOfElement(U.arg(1))), "v");
  EXPECT_EQ(containerOfElement(U.arg(2)), nullptr);
  // The container passed whole is the operand.
  auto Operands = tensorOperands(U.call(3));
  ASSERT_EQ(Operands.size(), 1u);
  EXPECT_EQ(nameOf(Operands[0]), "v");
}

} // namespace

TEST(ErrorsTest, WhichCallsThrowLibTorchErrors) {
  const Case<bool> Cases[] = {
      // LibTorch's calls, and the user's (which may call LibTorch).
      {"x.to(device)", true},
      {"x + y", true},
      {"mine::make()", true},
      {"c10::Device(\"cuda:1\")", true},
      // Declared not to throw, the standard library's, a copy.
      {"mine::quiet()", false},
      {"v.push_back(x)", false},
      {"at::Tensor(x)", false},
  };
  expectEach("torch::Tensor x, torch::Tensor y, torch::Device device, "
             "std::vector<at::Tensor> v",
             Cases, [](const Snippet &U, size_t I) {
               // A construction as written: `T(args)`.
               const Expr *E = U.arg(I);
               if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
                 E = Cast->getSubExpr()->IgnoreImplicit();
               return mayThrowLibTorchError(E);
             });
}

TEST(ErrorsTest, WhichHandlersCatchLibTorchErrors) {
  Snippet U = parse(R"cpp(
    namespace std { struct exception {}; struct runtime_error : exception {}; }
    namespace c10 {
    struct Error : std::exception {};
    struct OutOfMemoryError : Error {};
    }
    struct MyError {};
    void f() {
      try {} catch (...) {}
      try {} catch (const std::exception &) {}
      try {} catch (const c10::Error &) {}
      try {} catch (c10::OutOfMemoryError &) {}
      try {} catch (const std::runtime_error &) {}
      try {} catch (const MyError &) {}
      try {} catch (int) {}
    })cpp");
  auto Handlers = match(cxxCatchStmt().bind("h"), U.Unit->getASTContext());
  ASSERT_EQ(Handlers.size(), 7u);
  std::vector<bool> Catches;
  for (const BoundNodes &Node : Handlers)
    Catches.push_back(catchesLibTorchErrors(Node.getNodeAs<CXXCatchStmt>("h")));
  EXPECT_EQ(Catches,
            (std::vector<bool>{true, true, true, true, false, false, false}));
}

TEST(DistributedTest, RankReadsAndProcessGroups) {
  Snippet U = parse(R"cpp(
    namespace std { char *getenv(const char *); }
    int MPI_Comm_rank(int, int *);
    namespace c10d {
    struct ProcessGroup { int getRank() const; };
    struct ProcessGroupNCCL : ProcessGroup {};
    }
    namespace c10 { template <class T> struct intrusive_ptr { T *operator->(); }; }
    void f(c10::intrusive_ptr<c10d::ProcessGroupNCCL> group, int *rank) {
      use(std::getenv("LOCAL_RANK"));
      use(std::getenv("SLURM_LOCALID"));
      use(std::getenv("RANK"));
      use(group->getRank());
      use(MPI_Comm_rank(0, rank));
      use(std::getenv("HOME"));
    })cpp");
  ASSERT_EQ(U.Args.size(), 6u);
  std::vector<RankKind> Kinds;
  for (size_t I = 0; I < U.Args.size(); ++I)
    Kinds.push_back(rankReadBy(U.call(I)));
  EXPECT_EQ(Kinds, (std::vector<RankKind>{RankKind::Local, RankKind::Local,
                                          RankKind::Global, RankKind::Global,
                                          RankKind::Global, RankKind::None}));
  EXPECT_TRUE(isProcessGroupType(declNamed(U, "group")->getType()));
  EXPECT_FALSE(isProcessGroupType(declNamed(U, "rank")->getType()));
}

TEST(DistributedTest, CudaDevicesWithoutTheProcessIndex) {
  Snippet U = parse(R"cpp(
    void f(int local_rank, torch::Tensor x) {
      use(c10::Device(torch::kCUDA));
      use(c10::Device("cuda"));
      use(c10::Device(torch::kCUDA, 0));
      use(c10::Device("cuda:1"));
      use(c10::Device(torch::kCUDA, local_rank));
      use(c10::Device(torch::kCPU));
      use(c10::Device("cpu"));
    })cpp");
  ASSERT_EQ(U.Args.size(), 7u);
  auto Found = [&](size_t I) {
    const Expr *E = U.arg(I);
    if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
      E = Cast->getSubExpr()->IgnoreImplicit();
    const auto *Construct = dyn_cast<CXXConstructExpr>(E);
    return Construct ? cudaDeviceWithoutRank(Construct)
                     : std::optional<CudaDeviceWithoutRank>();
  };
  // No index: the current device; a number: one GPU for every process.
  ASSERT_TRUE(Found(0));
  EXPECT_FALSE(Found(0)->FixedIndex);
  ASSERT_TRUE(Found(1));
  EXPECT_FALSE(Found(1)->FixedIndex);
  ASSERT_TRUE(Found(2));
  EXPECT_TRUE(Found(2)->FixedIndex);
  ASSERT_TRUE(Found(3));
  EXPECT_TRUE(Found(3)->FixedIndex);
  // An index the code computes, and the CPU.
  EXPECT_FALSE(Found(4));
  EXPECT_FALSE(Found(5));
  EXPECT_FALSE(Found(6));
}
