//===--- Distributed.h - Processes, ranks and their GPUs ---------*- C++
//-*-===//
//
// The distributed facet of the LibTorch model. A distributed run starts one
// process per GPU (torchrun, mpirun), each told its place by a rank: the
// environment (`LOCAL_RANK`, `RANK`, MPI's and Slurm's variables) or a
// process group (`c10d::ProcessGroup::getRank()`). `torch::kCUDA` without an
// index is the process's current CUDA device, which is GPU 0 until the
// process sets it (`c10::cuda::set_device`, `cudaSetDevice`, a CUDA device
// guard): without that, every process puts its model on GPU 0.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_MODEL_DISTRIBUTED_H
#define TORCHTIDY_MODEL_DISTRIBUTED_H

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace torchtidy {

/// How a rank is read.
enum class RankKind {
  None,
  /// The process's index on its machine: the GPU it should use
  /// (`getenv("LOCAL_RANK")`, `OMPI_COMM_WORLD_LOCAL_RANK`, `SLURM_LOCALID`).
  Local,
  /// The process's index in the whole run (`getenv("RANK")`,
  /// `process_group->getRank()`, `MPI_Comm_rank`): the GPU only on one
  /// machine.
  Global,
};

/// Whether Call reads a rank, and which (the environment variable's name
/// is read from a string literal argument).
RankKind rankReadBy(const clang::CallExpr *Call);

/// Whether Type is one of c10d's process groups or backends (or a pointer,
/// reference, `c10::intrusive_ptr` or `std::shared_ptr` to one): a file
/// that holds one runs one process per rank.
bool isProcessGroupType(clang::QualType Type);

/// Whether a device index is computed (the rank, a variable), not a number
/// written in the code or left to its default: each process's own.
bool isComputedDeviceIndex(const clang::Expr *Index);

/// The device argument of a call that sets the process's current CUDA
/// device (`c10::cuda::set_device`, `at::cuda::set_device`,
/// `cudaSetDevice`); null for any other call.
const clang::Expr *currentDeviceSetBy(const clang::CallExpr *Call);

/// The device argument of a CUDA device guard's construction
/// (`c10::cuda::CUDAGuard`, `OptionalCUDAGuard`, `c10::DeviceGuard`), which
/// sets the current device for its scope; null for any other construction.
const clang::Expr *
currentDeviceGuardedBy(const clang::CXXConstructExpr *Construct);

/// A CUDA device a construction spells without the process's own index:
/// `torch::Device(torch::kCUDA)`, `torch::Device("cuda")`, the implicit
/// `torch::Device` of `.to(torch::kCUDA)`, `TensorOptions(torch::kCUDA)`,
/// or one with a fixed index (`torch::Device(torch::kCUDA, 0)`, "cuda:0").
struct CudaDeviceWithoutRank {
  /// What the device is spelled from: the `torch::kCUDA` or the string.
  const clang::Expr *Spelled = nullptr;
  /// The fixed index (`0` in `Device(kCUDA, 0)`), if there is one.
  const clang::Expr *FixedIndex = nullptr;
  /// The construction is written (`torch::Device(...)`, `device(...)`),
  /// not an implicit conversion.
  bool Written = false;
};
std::optional<CudaDeviceWithoutRank>
cudaDeviceWithoutRank(const clang::CXXConstructExpr *Construct);

} // namespace torchtidy

#endif // TORCHTIDY_MODEL_DISTRIBUTED_H
