//===--- Devices.h - Devices, transfers and accelerators --------*- C++ -*-===//
//
// The device facet of the LibTorch model: device types as LibTorch spells
// them (kCUDA, DeviceType::MPS, "cuda:1"), the arguments that name a device,
// where a migration (.to, .cuda, .cpu) sends a tensor or a module, which calls
// wait for the device, and how a program asks whether an accelerator is there.
// The device-flow analysis tracks placement; these say what a call does to it.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_MODEL_DEVICES_H
#define TORCHTIDY_MODEL_DEVICES_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace torchtidy {

/// A device named by a LibTorch constant or enumerator: kCPU, kCUDA, kMeta,
/// DeviceType::CUDA, ... Returns its lower-case type name ("cuda").
std::optional<llvm::StringRef> deviceTypeNamed(const clang::ValueDecl *D);

/// The device type a device expression spells out: kCUDA, DeviceType::CUDA,
/// torch::Device(torch::kCUDA, 1), torch::Device("cuda:1"), "cuda",
/// torch::device(kCUDA). std::nullopt for variables and computed values.
std::optional<llvm::StringRef> spelledDeviceType(const clang::Expr *E);

/// Where a migration (tensor or module .to/.cuda/.cpu) sends its data.
enum class TransferTarget {
  None,    ///< Not a migration, or one that changes only the dtype.
  Host,    ///< .cpu(), .to(kCPU).
  OffHost, ///< .cuda(), .to(kCUDA), .to("cuda:1").
  Unknown, ///< .to(device) with a device variable: may leave the host.
};
TransferTarget transferTarget(const clang::CallExpr *Call);

/// `.cuda()` of a tensor (or module): the one move off the host that names
/// no device, so it goes to the process's current CUDA device.
bool movesToCurrentCudaDevice(const clang::CallExpr *Call);

/// A call that copies a tensor's data to the host and so waits for the
/// device to finish: .item(), .cpu(), .to(kCPU), nonzero(), equal(),
/// is_nonzero(), and printing a tensor to a stream. The tensor is the call's
/// first tensor operand.
bool synchronizesWithHost(const clang::CallExpr *Call);

/// Whether a host-synchronising call waits because the size of its result
/// depends on the data (nonzero(): one row per nonzero element): the wait
/// is what the call computes, not a read that could be put off.
bool sizesResultFromData(const clang::CallExpr *Call);

/// The accelerator whose presence a call asks about, for code that checks
/// before using it: "cuda" for torch::cuda::is_available() / device_count()
/// and at::hasCUDA(), "mps" for torch::mps::is_available() and at::hasMPS(),
/// "xpu" for torch::xpu::is_available() / device_count() and at::hasXPU().
/// std::nullopt for any other call.
std::optional<llvm::StringRef> queriedAccelerator(const clang::CallExpr *Call);

/// How a program asks whether an accelerator type is present, as the user
/// writes it ("torch::mps::is_available()"); empty for a type LibTorch's C++
/// API has no such question for.
llvm::StringRef availabilityQueryFor(llvm::StringRef DeviceType);

/// Whether a LibTorch call being true means the device is an accelerator:
/// true for `is_cuda()`, `is_mps()` and `is_xpu()` on a device or tensor,
/// false for `is_cpu()` (a LibTorch build trains on the CPU or on one
/// accelerator, so not the CPU means that accelerator); nullopt for any
/// other call.
std::optional<bool> testsForAcceleratorDevice(const clang::CallExpr *Call);

/// The first argument that says where a result goes: a Device, a DeviceType
/// or a TensorOptions. Null when the call leaves the default (the CPU).
const clang::Expr *deviceArgument(const clang::CallExpr *Call);

/// For tensor.to(other): the tensor whose device is copied.
const clang::Expr *deviceSourceTensorArgument(const clang::CallExpr *Call);

/// The tensor whose device a migration targets: `x` in `.to(x)`,
/// `.to(x.device())` or `.to(x.options())`. The data goes where x already
/// is. Null for any other target.
const clang::Expr *tensorWhoseDeviceIsTarget(const clang::CallExpr *Migration);

} // namespace torchtidy

#endif // TORCHTIDY_MODEL_DEVICES_H
