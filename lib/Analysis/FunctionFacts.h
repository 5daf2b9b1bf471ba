//===--- FunctionFacts.h - Lexical facts about one function body -*- C++
//-*-===//
//
// What the device-flow pass needs to know about the shape of a body rather
// than about values: the loops, where autograd is switched off by a guard,
// which expressions are statements whose value is thrown away, and which
// variables reach backward() or leave the function.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_ANALYSIS_FUNCTIONFACTS_H
#define TORCHTIDY_ANALYSIS_FUNCTIONFACTS_H

#include "Model/Modules.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <utility>

namespace torchtidy {

/// A place a value is stored: a variable, a field of a variable, or a field
/// of `this` (Base null).
using StorageKey =
    std::pair<const clang::ValueDecl *, const clang::FieldDecl *>;

/// Whether Loc lies within Outer, compared at their expansion locations (so
/// code inside macros counts where the macro is used). False when any
/// location is invalid.
bool rangeContains(const clang::SourceManager &SM, clang::SourceRange Outer,
                   clang::SourceLocation Loc);

/// The storage an expression names (`x`, `batch.data`, `this->total`), if any.
std::optional<StorageKey> storageKeyOf(const clang::Expr *E);

/// Calls Visit on S and on every statement under it, parents first.
template <typename Callback>
void forEachStmt(const clang::Stmt *S, Callback &&Visit) {
  if (!S)
    return;
  Visit(S);
  for (const clang::Stmt *Child : S->children())
    forEachStmt(Child, Visit);
}

/// A loop that runs at most this many times whatever the data (the levels
/// of a feature pyramid, the heads of a network, the terms of a loss) is
/// straight-line code written once: it costs what the code around it costs.
constexpr uint64_t MaxFewIterations = 16;

/// Whether Loop runs at most MaxFewIterations times, as its header says: a
/// `for` that counts a variable, which its body leaves alone, from one
/// constant to another, a range-for over a braced list or an array of a
/// constant size, or the `do { ... } while (false)` of a macro.
bool runsAFewTimes(const clang::Stmt *Loop, const clang::ASTContext &Ctx);

/// The body of a `for`, range-`for`, `while` or `do`; null for any other
/// statement.
const clang::Stmt *loopBody(const clang::Stmt *Loop);

/// Whether a loop that repeats with the data (not runsAFewTimes) is under
/// S, S included: in a loop's body, it makes the loop an outer loop (one
/// over epochs); in a function's, the function a pass over data.
bool containsRepeatedLoop(const clang::Stmt *S, const clang::ASTContext &Ctx);

/// Whether code under Root may change the variable: assigns it, increments
/// it, calls a non-const method on it or passes it by non-const reference.
bool isModifiedUnder(const clang::ValueDecl *D, const clang::Stmt *Root);

/// What the host does with a value that a call copies to it (`.item()`).
enum class HostUse {
  /// Totals, prints or stores it: reading it can wait for the logging
  /// interval.
  Kept,
  /// Checks it in an assertion: the check can move to the logging branch.
  Asserted,
  /// Needs it now: it decides a branch, sizes or indexes an op, or feeds
  /// the program's own logic (an environment's step).
  Needed,
};

class FunctionFacts {
public:
  FunctionFacts(const clang::Stmt *Body, clang::ASTContext &Ctx);

  /// Where autograd does not record, or may not: after a NoGradGuard,
  /// InferenceMode or AutoGradMode(false) in an enclosing block, or after
  /// GradMode::set_enabled(false), unless a setting nearer S turns it back
  /// on.
  bool isInNoGradScope(const clang::Stmt *S) const;
  /// Whether a loop of the body moves tensors to a device or runs
  /// backward(): a pass over data (train(), evaluate()), not a loop over
  /// layers or over the elements of one batch.
  bool hasLoopOverData() const;
  /// The innermost loop whose body or header contains S, or null.
  const clang::Stmt *innermostLoopAround(const clang::Stmt *S) const;
  /// The innermost loop around S that repeats as often as its data asks:
  /// one that does not runsAFewTimes. Null when there is none.
  const clang::Stmt *innermostRepeatedLoopAround(const clang::Stmt *S) const;
  /// Whether the loop is an evaluation or inference pass: autograd does not
  /// record there, or the switch of a module's mode made last before it is
  /// to eval(); it runs no backward(), and each iteration moves data to a
  /// device. Reading each batch's result is what such a pass is for, and it
  /// runs once per epoch or once per run, not once per training step.
  /// ModeOnEntry is the mode the function's callers leave the module in,
  /// for a body that switches none before the loop.
  bool isEvaluationPass(const clang::Stmt *Loop,
                        ModeSwitch ModeOnEntry = ModeSwitch::None) const;
  /// The mode the module-mode switch made last before S, in the body's
  /// order, sets (`model->eval();`); None where the body makes none.
  ModeSwitch modeSetBefore(const clang::Stmt *S) const;
  /// The loop whose every pass runs S at most once, because S is in a
  /// branch that closes its own flag (`if (first) { ...; first = false; }`)
  /// and nothing else in that loop sets the flag again; null when there is
  /// none. A print of the first batch in a batch loop runs once per epoch.
  const clang::Stmt *runOnceLoopAround(const clang::Stmt *S) const;
  /// Whether S runs only in the iterations of the loop that take no
  /// training step: it is in one branch of an `if` inside the loop whose
  /// other branch runs backward() and its own does not (a loop shared by
  /// the training and the testing pass, `if (training) ... else total +=
  /// loss.item<float>();`).
  bool isOnEvaluationBranch(const clang::Stmt *S,
                            const clang::Stmt *Loop) const;
  /// What the host does with the value Copied gives it, followed through
  /// conversions, arithmetic and the local variables it is stored in.
  HostUse hostUseOf(const clang::Expr *Copied) const;
  /// Whether the variable is declared inside the loop, so it dies with each
  /// iteration.
  bool isDeclaredInside(const clang::ValueDecl *D,
                        const clang::Stmt *Loop) const;
  /// Whether code inside the loop may change the variable: assigns it,
  /// increments it, calls a non-const method on it or passes it by
  /// non-const reference.
  bool isModifiedInside(const clang::ValueDecl *D,
                        const clang::Stmt *Loop) const;
  /// Whether the loop only reads out a result computed before it: Copied is
  /// a part, taken with host indices, of a local variable the loop does not
  /// change (`out.index({b, t})` of an output printed row by row), and the
  /// loop queues no device work of its own (no module call, transfer or
  /// backward()). Only the first of its copies waits for the device.
  bool readsOutFinishedResult(const clang::Expr *Copied,
                              const clang::Stmt *Loop) const;
  /// Whether E has the same value in every iteration of the loop: it is
  /// built from constants and local variables that the loop neither
  /// declares nor modifies (`values[n]` with one `n` throughout).
  bool isSameEveryIteration(const clang::Expr *E,
                            const clang::Stmt *Loop) const;
  /// Inside the branch of an `if` whose condition uses `%`, such as
  /// `if (step % 100 == 0)`: code that runs once per interval, not every
  /// iteration.
  bool isInPeriodicBranch(const clang::Stmt *S) const;
  /// The expression's value is thrown away: it is a statement on its own
  /// (in a block, or the body of an `if` or a loop), the third clause of a
  /// `for`, an operand of a comma whose left side it is or whose value is
  /// thrown away, or cast to void.
  bool isDiscardedValue(const clang::Expr *E) const;
  /// The cast to void that throws E's value away (`(void)x.to(d);`), or null.
  const clang::ExplicitCastExpr *voidCastDiscarding(const clang::Expr *E) const;
  /// The storage reaches backward()/autograd::grad, or is returned, directly
  /// or through the local variables computed from it
  /// (`auto loss = -(torch::stack(log_probs) * r).sum(); loss.backward();`).
  bool isBackpropagatedOrEscapes(StorageKey Key) const;
  /// The range-for that declares Var as its loop variable, or null.
  const clang::CXXForRangeStmt *
  rangeForDeclaring(const clang::VarDecl *Var) const;

private:
  friend class FactsCollector;
  bool contains(clang::SourceRange Outer, clang::SourceLocation Loc) const;
  HostUse hostUseOf(const clang::Expr *Copied, unsigned Depth) const;
  bool isInAssertion(const clang::Expr *E) const;
  /// The statement S is a child of, in the body; null for the body.
  const clang::Stmt *parentOf(const clang::Stmt *S) const;

  clang::ASTContext &Ctx;
  const clang::Stmt *Body;
  /// parentOf's map, built on first use.
  mutable llvm::DenseMap<const clang::Stmt *, const clang::Stmt *> Parents;
  llvm::SmallVector<const clang::Stmt *, 8> Loops;
  /// From a grad-mode guard's declaration to the end of its block; from a
  /// GradMode::set_enabled() call to the end of the function.
  struct GradModeRegion {
    clang::SourceRange Range;
    bool Records; ///< whether autograd records there
  };
  llvm::SmallVector<GradModeRegion, 2> GradModeRegions;
  llvm::SmallVector<clang::SourceRange, 2> PeriodicBranches;
  /// An `if` whose branch closes the flag its condition needs.
  struct LatchedBranch {
    const clang::IfStmt *If;
    const clang::VarDecl *Flag;
  };
  llvm::SmallVector<LatchedBranch, 1> LatchedBranches;
  /// Each call that switches a module's mode, in the body's order.
  struct ModeSwitchSite {
    clang::SourceLocation Loc;
    ModeSwitch Switch;
  };
  llvm::SmallVector<ModeSwitchSite, 2> ModeSwitches;
  /// Each discarded value, with the cast to void that discards it, if any.
  llvm::DenseMap<const clang::Expr *, const clang::ExplicitCastExpr *>
      DiscardedValues;
  llvm::DenseSet<StorageKey> BackpropagatedOrEscaping;
  /// The storage each local variable is initialized or assigned from.
  llvm::DenseMap<const clang::Decl *, llvm::DenseSet<StorageKey>> ComputedFrom;
  llvm::DenseMap<const clang::VarDecl *, const clang::CXXForRangeStmt *>
      RangeForLoopVariables;
};

} // namespace torchtidy

#endif // TORCHTIDY_ANALYSIS_FUNCTIONFACTS_H
