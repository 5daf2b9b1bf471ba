//===--- Distributed.cpp - Processes, ranks and their GPUs ----------------===//

#include "Model/Distributed.h"
#include "Model/Devices.h"
#include "Model/SourceText.h"
#include "Model/TorchTypes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace torchtidy {

/// E as written, under implicit conversions and parentheses.
static const Expr *bare(const Expr *E) {
  return E->IgnoreImplicit()->IgnoreParens()->IgnoreImplicit();
}

/// One of c10d's process groups or backends (`ProcessGroupNCCL`,
/// `ProcessGroupGloo`, `ProcessGroupMPI`, their bases and wrappers).
static bool isProcessGroupClass(const CXXRecordDecl *Class) {
  if (!Class)
    return false;
  const auto *Namespace =
      dyn_cast<NamespaceDecl>(Class->getEnclosingNamespaceContext());
  if (!Namespace || Namespace->getName() != "c10d" ||
      !Class->getDeclName().isIdentifier())
    return false;
  return Class->getName().starts_with("ProcessGroup") ||
         Class->getName() == "Backend";
}

bool isProcessGroupType(QualType Type) {
  Type = Type.getNonReferenceType();
  if (Type->isPointerType())
    Type = Type->getPointeeType();
  const CXXRecordDecl *Class = Type->getAsCXXRecordDecl();
  // c10::intrusive_ptr<c10d::ProcessGroupNCCL>, std::shared_ptr<...>.
  if (const auto *Specialization =
          dyn_cast_or_null<ClassTemplateSpecializationDecl>(Class);
      Specialization && Specialization->getTemplateArgs().size() > 0 &&
      Specialization->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
    return isProcessGroupClass(
        Specialization->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl());
  return isProcessGroupClass(Class);
}

RankKind rankReadBy(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getDeclName().isIdentifier())
    return RankKind::None;
  llvm::StringRef Name = Callee->getName();
  if (Name == "getenv" || Name == "secure_getenv") {
    const StringLiteral *Variable = Call->getNumArgs() > 0
                                        ? writtenStringLiteral(Call->getArg(0))
                                        : nullptr;
    if (!Variable || !Variable->isOrdinary())
      return RankKind::None;
    llvm::StringRef Read = Variable->getString();
    if (llvm::is_contained({"LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK",
                            "SLURM_LOCALID", "MPI_LOCALRANKID"},
                           Read))
      return RankKind::Local;
    if (llvm::is_contained(
            {"RANK", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID", "PMI_RANK"}, Read))
      return RankKind::Global;
    return RankKind::None;
  }
  if (Name == "MPI_Comm_rank")
    return RankKind::Global;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
      Method && (Name == "getRank" || Name == "rank") &&
      isProcessGroupClass(Method->getParent()))
    return RankKind::Global;
  return RankKind::None;
}

bool isComputedDeviceIndex(const Expr *Index) {
  Index = bare(Index);
  return !isa<IntegerLiteral>(Index) && !isa<CXXDefaultArgExpr>(Index);
}

const Expr *currentDeviceSetBy(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || Call->getNumArgs() == 0)
    return nullptr;
  std::string Name = Callee->getQualifiedNameAsString();
  if (Name == "c10::cuda::set_device" || Name == "at::cuda::set_device" ||
      Name == "cudaSetDevice")
    return Call->getArg(0);
  return nullptr;
}

const Expr *currentDeviceGuardedBy(const CXXConstructExpr *Construct) {
  const CXXRecordDecl *Class = Construct->getType()->getAsCXXRecordDecl();
  if (!Class || Construct->getNumArgs() == 0)
    return nullptr;
  std::string Name = Class->getQualifiedNameAsString();
  if (Name == "c10::cuda::CUDAGuard" ||
      Name == "c10::cuda::OptionalCUDAGuard" || Name == "c10::DeviceGuard" ||
      Name == "c10::OptionalDeviceGuard")
    return Construct->getArg(0);
  return nullptr;
}

std::optional<CudaDeviceWithoutRank>
cudaDeviceWithoutRank(const CXXConstructExpr *Construct) {
  QualType Type = Construct->getType();
  if (!isDeviceSpecType(Type) || Construct->getNumArgs() == 0)
    return std::nullopt;
  const Expr *First = bare(Construct->getArg(0));
  CudaDeviceWithoutRank Found;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(First)) {
    std::optional<llvm::StringRef> Named = deviceTypeNamed(Ref->getDecl());
    if (!Named || *Named != "cuda")
      return std::nullopt;
    Found.Spelled = Ref;
    // `torch::Device(torch::kCUDA, index)`: an index the code computes is
    // the process's own; a number is the same GPU in every process.
    if (!isTensorOptionsType(Type) && Construct->getNumArgs() > 1 &&
        !isa<CXXDefaultArgExpr>(Construct->getArg(1))) {
      const Expr *Index = Construct->getArg(1);
      if (isComputedDeviceIndex(Index))
        return std::nullopt;
      Found.FixedIndex = bare(Index);
    }
  } else if (const StringLiteral *String = writtenStringLiteral(First);
             String && !isTensorOptionsType(Type)) {
    std::optional<llvm::StringRef> Spelled = spelledDeviceType(String);
    if (!Spelled || *Spelled != "cuda")
      return std::nullopt;
    Found.Spelled = String;
    if (String->getString().contains(':'))
      Found.FixedIndex = String;
  } else {
    return std::nullopt;
  }
  Found.Written = Construct->getBeginLoc() != Found.Spelled->getBeginLoc();
  return Found;
}

} // namespace torchtidy
