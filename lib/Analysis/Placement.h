//===--- Placement.h - The device lattice -----------------------*- C++ -*-===//
//
// Abstract values of the device-flow analysis. A value (tensor, module or
// device specification) has a Placement: the set of devices it may be on at
// run time, and, when a torch::Device variable chose it, that variable, so two
// tensors moved with the same `device` are known to be together even when the
// variable's value is not known. Alongside: whether a tensor is 0-dim, whether
// it carries autograd history, and the Origins that explain where it got its
// device (they become the notes of a diagnostic).
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_ANALYSIS_PLACEMENT_H
#define TORCHTIDY_ANALYSIS_PLACEMENT_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace torchtidy {

/// One concrete device: a type ("cpu", "cuda", "meta") and an index, -1 for
/// "the current device of that type".
struct Device {
  std::string Type;
  int Index = -1;

  static Device cpu() { return {"cpu", -1}; }
  /// Parses a LibTorch device string: "cuda", "cuda:1", "cpu", "meta".
  static std::optional<Device> parse(llvm::StringRef Text);

  bool isHost() const { return Type == "cpu"; }
  /// Whether tensors on these two devices cannot meet in one op. An index of
  /// -1 may be any index of its type.
  bool conflictsWith(const Device &Other) const;
  std::string str() const;

  bool operator==(const Device &O) const {
    return Type == O.Type && Index == O.Index;
  }
  bool operator<(const Device &O) const {
    return Type != O.Type ? Type < O.Type : Index < O.Index;
  }
};

/// The devices a value may be on: a small set of concrete devices, or any
/// device (a torch::Device whose value the caller chooses).
class DeviceSet {
public:
  DeviceSet() = default;
  static DeviceSet of(Device D);
  static DeviceSet anyDevice();

  bool isAny() const { return Any; }
  /// Exactly one concrete device.
  bool isSingle() const { return !Any && Devices.size() == 1; }
  bool isOnlyHost() const { return isSingle() && Devices.front().isHost(); }
  llvm::ArrayRef<Device> devices() const { return Devices; }

  DeviceSet join(const DeviceSet &Other) const;
  bool operator==(const DeviceSet &O) const {
    return Any == O.Any && Devices == O.Devices;
  }
  bool operator!=(const DeviceSet &O) const { return !(*this == O); }

  /// "the CPU", "'cuda'", "'cuda:1'", "'cpu' or 'cuda'", "any device".
  std::string describe() const;

private:
  llvm::SmallVector<Device, 2> Devices; // Sorted, unique.
  bool Any = false;
};

/// Where a value is, as far as the analysis knows.
struct Placement {
  enum class Knowledge {
    Unset,   ///< Bottom: not reached yet / no device given (options).
    Known,   ///< Devices holds the possibilities.
    Unknown, ///< Top: no idea (a tensor parameter, an opaque call).
  };
  Knowledge State = Knowledge::Unset;
  DeviceSet Devices;
  /// What chose the device, when a name did: the torch::Device / DeviceType
  /// variable the value was placed with, or, inside the methods of a Module,
  /// the module class: its parameters, and the inputs its callers must pass,
  /// are on "the module's device", wherever that is at run time.
  const clang::NamedDecl *DeviceVar = nullptr;
  /// In a function analysed with its callers' context (CallerContext.h):
  /// the value is still wherever the callers' argument for this parameter
  /// is, untouched by the function. It is the caller's view of what a
  /// summary says with DeviceVar set to the parameter, and flows the same
  /// way: kept by what keeps a placement, lost by a move or a join with
  /// anything else.
  const clang::ParmVarDecl *FromParameter = nullptr;

  static Placement unset() { return {}; }
  static Placement unknown() {
    Placement P;
    P.State = Knowledge::Unknown;
    return P;
  }
  static Placement on(DeviceSet Devices,
                      const clang::NamedDecl *DeviceVar = nullptr) {
    Placement P;
    P.State = Knowledge::Known;
    P.Devices = std::move(Devices);
    P.DeviceVar = DeviceVar;
    return P;
  }
  static Placement host() { return on(DeviceSet::of(Device::cpu())); }

  bool isKnown() const { return State == Knowledge::Known; }
  bool isDefinitelyHost() const { return isKnown() && Devices.isOnlyHost(); }
  /// Whether the value is, or may be, on the host on some path. A value
  /// whose placement is not known may be anywhere.
  bool mayBeOnHost() const;
  /// Whether the value is, or may be, off the host on some path.
  bool mayBeOffHost() const;

  Placement join(const Placement &Other) const;
  bool operator==(const Placement &O) const {
    return State == O.State && Devices == O.Devices &&
           DeviceVar == O.DeviceVar && FromParameter == O.FromParameter;
  }
  bool operator!=(const Placement &O) const { return !(*this == O); }

  /// "the CPU", "'device'", "'cuda:1'", "'cpu' or 'cuda'", "the module's
  /// device".
  std::string describe() const;
};

/// Whether two values are on different devices on some execution path, with
/// enough certainty to warn: one side is pinned to a single device and the
/// other may be elsewhere. Values placed through the same variable agree;
/// two uncertain sides are given the benefit of the doubt.
bool mayConflict(const Placement &A, const Placement &B);

/// Whether a tensor carries autograd history (so keeping it keeps its graph).
/// A Leaf requires grad but was made, not computed (a parameter built by
/// hand with `requires_grad(true)`): it has no graph to keep, and what is
/// computed from it Carries.
enum class GradHistory { Unknown, None, Carries, Leaf };
GradHistory join(GradHistory A, GradHistory B);

/// What kind of host memory a tensor's data is in, should it be on the host.
/// Only pinned (page-locked) memory lets a copy to a device run
/// asynchronously; from pageable memory the copy is synchronous.
enum class HostMemory {
  Unknown,  ///< Not said by the step that made the value, or differs
            ///< between paths. Never reported.
  Pageable, ///< Ordinary memory: factories, batches, op results, .cpu().
  Pinned,   ///< .pin_memory(), or options with pinned_memory(true).
};
/// Equal sides agree; anything else is Unknown.
HostMemory join(HostMemory A, HostMemory B);

/// Why a value is where it is: one step of its history, shown as a note.
struct Origin {
  enum class Kind {
    DataLoaderBatch,    ///< batch.data / batch.target: host tensors.
    Factory,            ///< torch::randn(...) and friends.
    FromBlob,           ///< torch::from_blob: wraps host memory.
    TensorLiteral,      ///< torch::tensor({...}): built from host values.
    Migration,          ///< x.to(d) / x.cuda(): a moved copy.
    HostCopy,           ///< x.cpu() / x.to(kCPU): back on the host.
    ModuleConstruction, ///< A module created here, on the host.
    ModuleMigration,    ///< model->to(d): moved in place.
    ModuleOutput,       ///< The result of a module call.
    DroppedMigration,   ///< `x.to(d);` whose result was thrown away.
    /// Returned by a function of this TU; the steps after it (older) are
    /// inside that function. Subject: the call as written.
    HelperResult,
    /// Changed by a function of this TU it was passed to (or a lambda that
    /// captured it by reference). Subject: the argument, Detail: the call.
    HelperEffect,
    /// A helper of this TU calls a module it was passed with inputs on a
    /// device; Loc is that module call. Subject: the input as written there,
    /// Detail: the module as written there.
    ModuleCallInHelper,
    /// A helper of this TU combines two of its parameters in one op; Loc is
    /// that op. Subject: the two parameters as written there ("'pred' and
    /// 'labels'"), Detail: the op.
    CombinedInHelper,
    /// torch::load restored a module where the same file was saved from (or
    /// onto the device it was given). Subject: the module as written,
    /// Detail: the file as written.
    CheckpointLoad,
    /// The module's class holds parameters, which its constructor in another
    /// file registers (a project fact). Loc: that constructor. Subject: the
    /// class.
    ModuleParameters,
    /// The value a parameter has in every call the program makes of the
    /// function (CallerContext.h). Loc: the argument at the call that leads
    /// the history. Subject: the parameter, Detail: the calling function.
    PassedByCaller,
    /// A tensor given to options (`.weight(w)`), which hold it, or to a
    /// module built from them, which holds it as a buffer. Loc: the setter
    /// call. Subject: the tensor as written, Detail: the setter ("weight").
    HeldByOptions,
    LastKind = HeldByOptions,
  };
  Kind K;
  clang::SourceLocation Loc;
  /// What the step acted on, as written: "batch.data", "model".
  std::string Subject;
  /// Kind-specific detail: the factory's name, the `.to(...)` arguments.
  std::string Detail;
  /// The device the step put the value on.
  std::string DeviceWords;
  /// For DataLoaderBatch: the example variable the tensor was read from, so
  /// that siblings (batch.data, batch.target) can be matched.
  const clang::ValueDecl *Batch = nullptr;
  /// For DataLoaderBatch: the read itself (`batch.data`), where a missing
  /// migration belongs.
  const clang::Expr *Read = nullptr;
  /// For Migration and ModuleMigration: Detail is a `.to(...)` that, written
  /// after another tensor, puts it where this step put the value. Not so for
  /// a module data_parallel moved, nor once the device variable the
  /// `.to(...)` names was assigned another device.
  bool MoveCanBeRepeated = true;

  bool operator==(const Origin &O) const {
    return K == O.K && Loc == O.Loc && Subject == O.Subject;
  }
};

/// The abstract value of one tensor, module or device specification.
struct AbstractValue {
  Placement Where;
  /// Definitely 0-dim. A 0-dim CPU tensor may meet tensors on any device.
  bool ZeroDim = false;
  /// An element or part picked from a tensor whose rank is not known
  /// (`x[i]`): 0-dim if that tensor was 1-D. Whether it may meet any device
  /// is unknown, so it is never the host side of a finding.
  bool MaybeZeroDim = false;
  /// The number of dimensions, where the steps that made the value spell it
  /// (`torch::zeros({n})`, then `x[i]`: 0).
  std::optional<unsigned> Rank;
  GradHistory Grad = GradHistory::Unknown;
  /// The kind of host memory the data is in, as the step that made the value
  /// says.
  HostMemory Memory = HostMemory::Unknown;
  /// Most recent first; at most MaxOrigins.
  llvm::SmallVector<Origin, 3> Origins;
  static constexpr unsigned MaxOrigins = 3;
  /// Computed by an op whose inputs cannot meet (a host tensor and a device
  /// one): the op throws, so no path goes on with this value. It holds the
  /// device side, so that code after it is judged as it will run once the
  /// mix is fixed; where paths join, it gives way to the other side (a host
  /// buffer updated from device values around a loop is still a host buffer
  /// at the loop's head, where the first iteration mixes it).
  bool FromFailingOp = false;
  /// For a std::pair / std::tuple of tensors built from known parts: each
  /// element's value. Empty when the step that made the tuple did not say
  /// (a module's forward returning a tuple): every element is then the
  /// tuple's own value.
  std::vector<AbstractValue> Elements;
  /// A LibTorch module built from options that hold tensors (a loss given
  /// a class weight): it holds them as buffers, so its calls need their
  /// inputs where those are, whatever its class holds otherwise. Where is
  /// the buffers' device. Joined paths must both hold them.
  bool HoldsGivenTensors = false;

  static AbstractValue unknown() {
    AbstractValue V;
    V.Where = Placement::unknown();
    return V;
  }
  /// Adds a step in front of the history, dropping the oldest past the cap.
  AbstractValue &addOrigin(Origin O);
  /// Adds what is older than every step so far (what the value's class is),
  /// listed last; dropped when the history is full.
  AbstractValue &addOldestOrigin(Origin O);
  const Origin *findOrigin(Origin::Kind K) const;
  /// The exempt operand of the "0-dim CPU scalars mix with anything" rule,
  /// or one that may be such a scalar.
  bool isHostScalar() const {
    return (ZeroDim || MaybeZeroDim) && Where.isDefinitelyHost();
  }

  /// A tuple of these values. Its own placement and history are the
  /// elements' where they all agree, unknown otherwise, so that code which
  /// loses track of the elements never sees a device they do not share.
  static AbstractValue tupleOf(std::vector<AbstractValue> Elements);
  /// Element Index of a tuple: the element's value when known, else the
  /// tuple's own.
  AbstractValue element(unsigned Index) const;

  AbstractValue join(const AbstractValue &Other) const;
  bool operator==(const AbstractValue &O) const;
  bool operator!=(const AbstractValue &O) const { return !(*this == O); }
};

/// What an object of a class of the user's holds in each of its tensor
/// fields, as far as it is known.
using ObjectFieldValues =
    llvm::SmallVector<std::pair<const clang::FieldDecl *, AbstractValue>, 2>;

} // namespace torchtidy

#endif // TORCHTIDY_ANALYSIS_PLACEMENT_H
