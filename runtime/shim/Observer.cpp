//===- Observer.cpp - The RecordFunction callbacks ------------------------===//

#include "Observer.h"
#include "OpClassifier.h"
#include "Operand.h"
#include "Shim.h"

#include <ATen/Context.h>
#include <ATen/record_function.h>
#include <c10/core/GradMode.h>
#include <torch/csrc/autograd/function.h>

#include <atomic>
#include <memory>

namespace torchtidy::rt {

namespace {
// Per thread, trivially destructible: ops run during thread and process
// teardown too.
/// How many observed ops enclose the current point on this thread.
thread_local int Depth = 0;
/// Set while the shim's own code runs: ops it might call are not observed.
thread_local bool InShim = false;

struct InShimScope {
  InShimScope() { InShim = true; }
  ~InShimScope() { InShim = false; }
};

/// Iterations are counted at backward passes: a backward pass begins with
/// the first backward-function event after an add-family op with autograd
/// history (and not at every backward node).
std::atomic<uint64_t> BackwardPasses{0};
std::atomic<bool> AddSinceBackward{false};

void noteBackwardFunction() {
  if (AddSinceBackward.load(std::memory_order_relaxed) &&
      AddSinceBackward.exchange(false))
    BackwardPasses.fetch_add(1, std::memory_order_relaxed);
}

/// Whether \p Scope is counted in the nesting depth. User scopes
/// (RECORD_USER_SCOPE) only annotate: the ops inside are still the ones the
/// program called.
bool isNested(at::RecordScope Scope) {
  return Scope != at::RecordScope::USER_SCOPE;
}

/// What the end callback of an add-family op needs from its start callback:
/// the inputs are gone by then.
struct AddContext final : at::ObserverContext {
  at::Tensor Self, Other;
};

void record(Shim &S, EventKind Kind, const char *Op,
            c10::ArrayRef<const c10::IValue> Inputs) {
  RawStack Stack;
  captureStack(Stack, S.config().StackDepth);
  if (S.sites().record(Kind, Op, Stack,
                       [&] { return describeTensors(Inputs); }))
    S.flushReport();
}

/// Devices of the operands, 0-dim CPU tensors left out: LibTorch treats them
/// as scalars, which mix with any device.
bool hasMixedDevices(const OpTraits &Traits,
                     c10::ArrayRef<const c10::IValue> Inputs) {
  bool Seen = false, Mixed = false;
  c10::Device First(c10::DeviceType::CPU);
  forEachTensor(Inputs, [&](size_t Index, const at::Tensor &Tensor) {
    if (Mixed)
      return;
    bool OnCpu = Tensor.is_cpu();
    if (OnCpu && Tensor.dim() == 0)
      return;
    // The index tensors of advanced indexing are its only list operand.
    if (OnCpu && Traits.CpuIndicesExempt && Inputs[Index].isList())
      return;
    c10::Device Device = Tensor.device();
    if (!Seen) {
      First = Device;
      Seen = true;
    } else if (Device != First) {
      Mixed = true;
    }
  });
  return Mixed;
}

bool isPinned(const at::Tensor &Tensor) {
  // Through the context, not Tensor::is_pinned(), which is an op and may
  // initialize CUDA.
  return at::globalContext().isPinnedPtr(Tensor.data_ptr());
}

/// A host-to-device copy, for the repeated_transfer rule.
void noteHostCopy(Shim &S, const at::RecordFunction &Fn,
                  const at::Tensor &Source, c10::Device To) {
  HostCopy Copy{Source, To};
  // Inference tensors have no version counter (reading it raises).
  if (!Source.is_inference())
    Copy.Version = Source._version();
  Copy.IsParameter = Source.requires_grad() && Source.is_leaf();
  RawStack Stack;
  captureStack(Stack, S.config().StackDepth);
  if (S.sites().noteHostCopy(Fn.name(), Stack, Copy,
                             [&] { return describeTensors(Fn.inputs()); }))
    S.flushReport();
}

void examineCopy(Shim &S, const at::RecordFunction &Fn) {
  std::optional<CopyOperands> Copy = copyOperands(Fn);
  if (!Copy)
    return;
  c10::Device From = Copy->Source.device();
  c10::Device To = Copy->Destination;
  // A non_blocking copy to the host is asynchronous (LibTorch pins its
  // destination): the host waits only once it reads the data.
  if (!From.is_cpu() && To.is_cpu()) {
    if (!Copy->NonBlocking)
      record(S, EventKind::Sync, Fn.name(), Fn.inputs());
    return;
  }
  // A meta destination counts: meta stands in for CUDA on a machine
  // without one.
  if (!From.is_cpu() || To.is_cpu())
    return;
  if (Copy->NonBlocking && !isPinned(Copy->Source))
    record(S, EventKind::NonBlockingUnpinned, Fn.name(), Fn.inputs());
  noteHostCopy(S, Fn, Copy->Source, To);
}

std::unique_ptr<at::ObserverContext>
examineStart(Shim &S, const at::RecordFunction &Fn) {
  const char *Name = Fn.name();
  OpTraits Traits = classifyOp(Name);
  c10::ArrayRef<const c10::IValue> Inputs = Fn.inputs();
  // Recorded now, before the op raises: the program may die of it.
  if (!Traits.MixExempt && hasMixedDevices(Traits, Inputs))
    record(S, EventKind::MixedDevice, Name, Inputs);
  if (Traits.Sync)
    record(S, EventKind::Sync, Name, Inputs);
  if (Traits.Copy)
    examineCopy(S, Fn);
  if (!Traits.AddFamily || !c10::GradMode::is_enabled())
    return nullptr;
  // No operand with autograd history or requiring grad: no history results.
  bool RequiresGrad = false;
  forEachTensor(Inputs, [&](size_t, const at::Tensor &Tensor) {
    RequiresGrad = RequiresGrad || Tensor.requires_grad();
  });
  if (!RequiresGrad)
    return nullptr;
  auto Context = std::make_unique<AddContext>();
  if (!Inputs.empty() && Inputs[0].isTensor())
    Context->Self = Inputs[0].toTensor();
  if (Inputs.size() > 1 && Inputs[1].isTensor())
    Context->Other = Inputs[1].toTensor();
  return Context;
}

void examineEnd(Shim &S, const at::RecordFunction &Fn, AddContext &Context) {
  const std::vector<c10::IValue> &Outputs = Fn.outputs();
  // No output: the op raised, and made no history.
  if (Outputs.empty() || !Outputs[0].isTensor())
    return;
  const at::Tensor &Result = Outputs[0].toTensor();
  if (!Result.defined())
    return;
  // A std::shared_ptr up to LibTorch 2.x's c10::intrusive_ptr: either will do.
  const auto &GradFn = Result.grad_fn();
  if (!GradFn)
    return;
  uint64_t Depth = GradFn->topological_nr();
  if (!AddSinceBackward.load(std::memory_order_relaxed))
    AddSinceBackward.store(true, std::memory_order_relaxed);
  RawStack Stack;
  captureStack(Stack, S.config().StackDepth);
  auto Operands = [&] {
    std::vector<Operand> Result;
    for (const at::Tensor *Tensor : {&Context.Self, &Context.Other})
      if (Tensor->defined())
        Result.push_back(describeTensor(*Tensor));
    return Result;
  };
  if (S.sites().noteDepth(Fn.name(), Stack, Depth,
                          BackwardPasses.load(std::memory_order_relaxed),
                          Operands))
    S.flushReport();
}

std::unique_ptr<at::ObserverContext> onStart(const at::RecordFunction &Fn) {
  if (InShim)
    return nullptr;
  Shim *S = Shim::get();
  if (!S || !S->active())
    return nullptr;
  at::RecordScope Scope = Fn.scope();
  if (!isNested(Scope))
    return nullptr;
  S->noteOp();
  if (Scope == at::RecordScope::BACKWARD_FUNCTION)
    noteBackwardFunction();
  // Backward functions and TorchScript functions count in the depth, but
  // only an op the program called is examined: the ops inside a backward
  // node are LibTorch's, not the program's.
  if (Depth++ != 0 || Scope != at::RecordScope::FUNCTION)
    return nullptr;
  InShimScope Guard;
  try {
    return examineStart(*S, Fn);
  } catch (...) {
    return nullptr; // never let an exception reach the program
  }
}

void onEnd(const at::RecordFunction &Fn, at::ObserverContext *Context) {
  // Mirrors onStart's early returns, so that Depth stays balanced; the end
  // callback also runs when the op raises.
  if (InShim || !isNested(Fn.scope()) || Depth <= 0)
    return;
  if (--Depth != 0 || !Context)
    return;
  Shim *S = Shim::get();
  if (!S || !S->active())
    return;
  InShimScope Guard;
  try {
    examineEnd(*S, Fn, static_cast<AddContext &>(*Context));
  } catch (...) {
  }
}
} // namespace

void registerObserver() {
  at::addGlobalCallback(at::RecordFunctionCallback(&onStart, &onEnd)
                            .needsInputs(true)
                            .needsOutputs(true));
}

} // namespace torchtidy::rt
