//===--- Devices.cpp - Devices, transfers and accelerators ----------------===//

#include "Model/Devices.h"

#include "Model/ModelDetail.h"
#include "Model/SourceText.h"
#include "Model/TensorOps.h"
#include "Model/TorchTypes.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace torchtidy {
using namespace model_detail;

std::optional<llvm::StringRef> deviceTypeNamed(const ValueDecl *D) {
  if (!D || !isInLibTorchNamespace(D))
    return std::nullopt;
  if (const auto *Enumerator = dyn_cast<EnumConstantDecl>(D)) {
    const auto *Enum = dyn_cast<EnumDecl>(Enumerator->getDeclContext());
    if (!Enum || stableQualifiedName(Enum) != "c10::DeviceType")
      return std::nullopt;
    return llvm::StringSwitch<std::optional<llvm::StringRef>>(
               plainName(Enumerator))
        .Case("CPU", llvm::StringRef("cpu"))
        .Case("CUDA", llvm::StringRef("cuda"))
        .Case("Meta", llvm::StringRef("meta"))
        .Case("MPS", llvm::StringRef("mps"))
        .Case("XPU", llvm::StringRef("xpu"))
        .Case("HIP", llvm::StringRef("hip"))
        .Case("XLA", llvm::StringRef("xla"))
        .Case("Vulkan", llvm::StringRef("vulkan"))
        .Default(std::nullopt);
  }
  // kCUDA and friends: constexpr DeviceType kCUDA = DeviceType::CUDA;
  if (const auto *Var = dyn_cast<VarDecl>(D))
    if (const Expr *Init = Var->getInit())
      if (const auto *Ref = dyn_cast<DeclRefExpr>(Init->IgnoreParenImpCasts()))
        if (Ref->getDecl() != D)
          return deviceTypeNamed(Ref->getDecl());
  return std::nullopt;
}

std::optional<llvm::StringRef> spelledDeviceType(const Expr *E) {
  if (!E)
    return std::nullopt;
  E = E->IgnoreImplicit()->IgnoreParens();
  if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
    return spelledDeviceType(Cast->getSubExpr());
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return deviceTypeNamed(Ref->getDecl());
  if (const auto *String = dyn_cast<StringLiteral>(E)) {
    if (!String->isOrdinary())
      return std::nullopt;
    // "cuda:1" names device 1 of type cuda.
    llvm::StringRef Type = String->getString().split(':').first;
    for (llvm::StringRef Known :
         {"cpu", "cuda", "meta", "mps", "xpu", "hip", "xla", "vulkan"})
      if (Type == Known)
        return Known;
    return std::nullopt;
  }
  // torch::Device(kCUDA, 1), torch::Device("cuda"), TensorOptions(kCUDA) and
  // the std::string a literal converts to on its way.
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
    return Construct->getNumArgs() > 0 ? spelledDeviceType(Construct->getArg(0))
                                       : std::nullopt;
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (classifyCall(Call) == TorchCallKind::TensorOptionsSet)
      return spelledDeviceType(deviceArgument(Call));
  return std::nullopt;
}

TransferTarget transferTarget(const CallExpr *Call) {
  TorchCallKind Kind = classifyCall(Call);
  if (Kind != TorchCallKind::Migration &&
      Kind != TorchCallKind::ModuleMigration)
    return TransferTarget::None;
  llvm::StringRef Name = plainName(Call->getDirectCallee());
  if (Name == "cuda")
    return TransferTarget::OffHost;
  if (Name == "cpu")
    return TransferTarget::Host;
  if (const Expr *Device = deviceArgument(Call)) {
    std::optional<llvm::StringRef> Type = spelledDeviceType(Device);
    if (!Type)
      return TransferTarget::Unknown;
    return *Type == "cpu" ? TransferTarget::Host : TransferTarget::OffHost;
  }
  // .to(other_tensor) follows a device we do not see; .to(kFloat) stays.
  return deviceSourceTensorArgument(Call) ? TransferTarget::Unknown
                                          : TransferTarget::None;
}

bool movesToCurrentCudaDevice(const CallExpr *Call) {
  return transferTarget(Call) == TransferTarget::OffHost &&
         !deviceArgument(Call);
}

bool synchronizesWithHost(const CallExpr *Call) {
  if (transferTarget(Call) == TransferTarget::Host)
    return true;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !isInLibTorchNamespace(Callee))
    return false;
  if (classifyCall(Call) == TorchCallKind::ReadScalar)
    return true;
  if (Callee->getOverloadedOperator() == OO_LessLess)
    return llvm::any_of(Call->arguments(), [](const Expr *Arg) {
      return isTensorType(Arg->getType());
    });
  llvm::StringRef Name = plainName(Callee);
  return Name == "nonzero" || Name == "equal" || Name == "is_nonzero" ||
         Name == "_local_scalar_dense";
}

bool sizesResultFromData(const CallExpr *Call) {
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return Callee && isInLibTorchNamespace(Callee) &&
         plainName(Callee) == "nonzero";
}

std::optional<llvm::StringRef> queriedAccelerator(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return std::nullopt;
  // A table, not StringSwitch::Cases, whose spelling LLVM 19 and 22 differ on.
  static const std::pair<llvm::StringRef, llvm::StringRef> Queries[] = {
      {"torch::cuda::is_available", "cuda"},
      {"torch::cuda::device_count", "cuda"},
      {"at::cuda::is_available", "cuda"},
      {"at::cuda::device_count", "cuda"},
      {"at::hasCUDA", "cuda"},
      {"torch::mps::is_available", "mps"},
      {"at::hasMPS", "mps"},
      {"torch::xpu::is_available", "xpu"},
      {"torch::xpu::device_count", "xpu"},
      {"at::hasXPU", "xpu"},
  };
  std::string Name = stableQualifiedName(Callee);
  for (const auto &[Function, Accelerator] : Queries)
    if (Name == Function)
      return Accelerator;
  return std::nullopt;
}

llvm::StringRef availabilityQueryFor(llvm::StringRef DeviceType) {
  return llvm::StringSwitch<llvm::StringRef>(DeviceType)
      .Case("cuda", "torch::cuda::is_available()")
      .Case("mps", "torch::mps::is_available()")
      .Case("xpu", "torch::xpu::is_available()")
      .Default("");
}

std::optional<bool> testsForAcceleratorDevice(const CallExpr *Call) {
  const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
  const CXXMethodDecl *Method = Member ? Member->getMethodDecl() : nullptr;
  if (!Method || !isInLibTorchNamespace(Method) || !Method->getIdentifier())
    return std::nullopt;
  llvm::StringRef Name = Method->getName();
  if (Name == "is_cuda" || Name == "is_mps" || Name == "is_xpu")
    return true;
  if (Name == "is_cpu")
    return false;
  return std::nullopt;
}

const Expr *deviceArgument(const CallExpr *Call) {
  unsigned First = (isa<CXXOperatorCallExpr>(Call) && callObject(Call)) ? 1 : 0;
  for (unsigned I = First, N = Call->getNumArgs(); I < N; ++I) {
    const Expr *Arg = Call->getArg(I);
    if (isa<CXXDefaultArgExpr>(Arg))
      continue;
    if (isDeviceSpecType(Arg->getType()))
      return Arg;
  }
  return nullptr;
}

const Expr *deviceSourceTensorArgument(const CallExpr *Call) {
  for (const Expr *Arg : Call->arguments())
    if (!isa<CXXDefaultArgExpr>(Arg) && isTensorType(Arg->getType()))
      return Arg;
  return nullptr;
}

const Expr *tensorWhoseDeviceIsTarget(const CallExpr *Migration) {
  if (const Expr *Tensor = deviceSourceTensorArgument(Migration))
    return Tensor;
  // `.to(x.device())` picks to(TensorOptions): the device arrives through
  // TensorOptions' converting constructor.
  const Expr *Spec = deviceArgument(Migration);
  while (Spec) {
    Spec = ignoreValuePreserving(Spec)->IgnoreImplicit();
    const auto *Conversion = dyn_cast<CXXConstructExpr>(Spec);
    if (!Conversion || Conversion->getNumArgs() != 1)
      break;
    Spec = Conversion->getArg(0);
  }
  const auto *Query = dyn_cast_or_null<CallExpr>(Spec);
  if (!Query || classifyCall(Query) != TorchCallKind::DeviceQuery)
    return nullptr;
  // The object of `x.options()` is x seen as its base, TensorBase.
  const Expr *Tensor = callObject(Query);
  Tensor = Tensor ? Tensor->IgnoreImpCasts() : nullptr;
  return Tensor && isTensorType(Tensor->getType()) ? Tensor : nullptr;
}

} // namespace torchtidy
