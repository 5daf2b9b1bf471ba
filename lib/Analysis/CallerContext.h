//===--- CallerContext.h - What a function's callers pass it ----*- C++ -*-===//
//
// A summary (DeviceFlow.h) carries what a function does up to its callers.
// This is the other direction: a helper's parameters take what its callers
// pass, so that a mask built on the CPU inside `dropout(X)` meets the GPU
// tensor every caller passes as X. A parameter's context is the arguments of
// every call of the function, joined, as each caller's own analysis knew
// them at the call; it is used only where those are all the calls the
// program can make: the calls in the unit's main file of a function no
// other file can call, or those and the calls the project's other units
// make (ProjectFacts.h), where the project knows them all. Anything else
// keeps its parameters unknown, as a function without context always has.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_ANALYSIS_CALLERCONTEXT_H
#define TORCHTIDY_ANALYSIS_CALLERCONTEXT_H

#include "Analysis/Placement.h"
#include "Model/Modules.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <functional>
#include <optional>
#include <vector>

namespace torchtidy {

/// A caller chain is followed this many functions up, no further: a
/// function whose callers' callers go deeper keeps its parameters unknown.
constexpr unsigned MaxCallerChain = 8;

/// One call of a function of the unit.
struct CallSite {
  const clang::CallExpr *Call = nullptr;
  /// The function whose body makes the call; for a call in a lambda, the
  /// lambda's call operator.
  const clang::FunctionDecl *Caller = nullptr;
  /// The call is in a loop of its caller (its body or its header) that
  /// repeats with the data, not one over a few levels (runsAFewTimes).
  bool InLoop = false;
};

/// Whether F is called only by its name, where calls of it can be seen: it
/// is no entry point, no variadic function, no template, no virtual method,
/// no constructor and no lambda, and no method of a module class (which
/// LibTorch's own code calls too).
bool isCalledOnlyByName(const clang::FunctionDecl *F);

/// Every call that the main file of a unit makes of each function, and
/// which functions those are all the calls of.
class CallSiteIndex {
public:
  explicit CallSiteIndex(const clang::ASTContext &Ctx);

  /// Says of a function the program can call from other units whether the
  /// project knows every call they make of it (UnitAnalysis.h): then the
  /// calls here, with those, are all the calls of it.
  void setCallsElsewhereKnown(
      std::function<bool(const clang::FunctionDecl *)> Known);

  /// The calls of F when they are all the calls the program makes of it:
  /// F is declared in the main file only (no header lets another unit call
  /// it), it is no entry point, no virtual method, no template, no
  /// constructor and no lambda, and nothing takes its address or names it
  /// from a template. Null otherwise.
  const std::vector<CallSite> *allCallsOf(const clang::FunctionDecl *F) const;

  /// The calls the main file makes of F, wherever F is declared; null when
  /// the main file also refers to F otherwise (takes its address, calls it
  /// from a template), so that not every call of it is seen.
  const std::vector<CallSite> *callsHereOf(const clang::FunctionDecl *F) const;

  /// The calls here of F that, with the calls other units make where the
  /// project knows them (setCallsElsewhereKnown), are all the calls the
  /// program makes of it; null when they are not.
  const std::vector<CallSite> *
  contextCallsOf(const clang::FunctionDecl *F) const;

  /// Every function the main file calls or refers to.
  std::vector<const clang::FunctionDecl *> calledOrReferenced() const;

  /// Whether F's context can be computed: contextCallsOf(F) is known and
  /// every caller here, up the chain, either has no context of its own or
  /// can have one, within MaxCallerChain functions and without coming back
  /// to F.
  bool hasContext(const clang::FunctionDecl *F) const;

  /// Whether F runs a fixed number of times in a run of the program,
  /// however much data the run works through: F is `main`, or it is called,
  /// and every call is outside the loops of a caller that runs a fixed
  /// number of times itself. A demo function that `main` calls once is;
  /// post-processing called once per frame, or a function whose callers
  /// are not all seen, is not.
  bool runsAFixedNumberOfTimes(const clang::FunctionDecl *F) const;

  /// A call of F in a loop of its caller that repeats with the data, when
  /// every call of F (allCallsOf) is in such a loop: F runs once per
  /// iteration of its callers' loops. Null otherwise.
  const CallSite *loopCallOf(const clang::FunctionDecl *F) const;

  /// The module mode every call of F is made in, as its callers show: the
  /// switch each caller makes last before its call (`model->eval();
  /// test(model, loader);`) or, where a caller makes none, the mode it is
  /// itself called in. None where the calls are not all seen, disagree or
  /// follow no switch.
  ModeSwitch modeOnEntry(const clang::FunctionDecl *F) const;

  /// Whether the main file may take a module out of training mode
  /// (mayEnterEvalMode in Model/Modules.h), or calls `eval` or `train`
  /// from a template, on an object whose type is not known there.
  bool mayLeaveTrainingMode() const { return LeavesTrainingMode; }

private:
  /// How many callers deep F's context reaches (0: it has none); none for a
  /// chain that recurses or is too deep.
  std::optional<unsigned> contextDepth(const clang::FunctionDecl *F) const;

  llvm::DenseMap<const clang::FunctionDecl *, std::vector<CallSite>> Calls;
  /// Functions the main file refers to other than by a call it can follow.
  llvm::DenseSet<const clang::FunctionDecl *> Escaping;
  llvm::DenseMap<const clang::FunctionDecl *, bool> AllCallsSeen;
  std::function<bool(const clang::FunctionDecl *)> CallsElsewhereKnown;
  bool LeavesTrainingMode = false;
  /// contextDepth's answers; a function being computed maps to "none",
  /// which is the answer for a chain that comes back to it.
  mutable llvm::DenseMap<const clang::FunctionDecl *, std::optional<unsigned>>
      Depths;
  /// runsAFixedNumberOfTimes's answers; a function being computed maps to
  /// false, the answer for a recursion.
  mutable llvm::DenseMap<const clang::FunctionDecl *, bool> FixedRuns;
  /// modeOnEntry's answers; a function being computed maps to None.
  mutable llvm::DenseMap<const clang::FunctionDecl *, ModeSwitch> EntryModes;
};

/// What every call of a function passes its parameters.
struct CallerContext {
  /// Per parameter, by index: the arguments of every call, joined, each
  /// marked as coming from the parameter (Placement::FromParameter) with a
  /// PassedByCaller origin in front. Unknown for a parameter that is no
  /// tensor, module or device, or that some call passes something unknown.
  std::vector<AbstractValue> Parameters;
  /// Per parameter that is an object of a plain class of the user's (a
  /// replay buffer passed by reference): what every call's object holds in
  /// each tracked field, joined and marked likewise. Empty for any other
  /// parameter.
  std::vector<ObjectFieldValues> ObjectFields;
  /// For a method of a plain class of the user's: what the object of every
  /// call holds in each tracked field, joined and marked as passed by the
  /// caller (`gallery.distances(query)` with the gallery built in `main`).
  /// Empty where some call's object is not one its caller follows (`this`,
  /// an object of another unit), or for any other function.
  ObjectFieldValues ThisObjectFields;
};

} // namespace torchtidy

#endif // TORCHTIDY_ANALYSIS_CALLERCONTEXT_H
