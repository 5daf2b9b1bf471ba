//===--- LoopInvariance.h - Values the same in every iteration -*- C++ -*-===//
//
// Whether an expression in a loop has the same value in every iteration,
// and where that value comes from: a variable or member the loop reads and
// never changes, the host memory a `from_blob` in the loop wraps again and
// again, or constants that a factory in the loop builds a tensor from each
// time. The fact flows through every op that gives the same result for the
// same operands (views, `permute`, `contiguous`, dtype conversions,
// arithmetic; isRepeatableLibTorchCall in the model) and through the loop's
// own local variables, so `from_blob(img.data(), {h, w, 3}).permute({2, 0,
// 1}).to(device)` is one loop-invariant transfer, as is `x.to(device)` of a
// local the loop initialised with it.
//
// The same question asked of a function's body instead of a loop says
// whether a value is the same in every call of the function: built from
// constants (perCall), not from members, which another method may change
// between calls, nor from parameters, unless every call gives the same
// arguments (sameArguments: a helper called in a loop with values the loop
// does not change).
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_ANALYSIS_LOOPINVARIANCE_H
#define TORCHTIDY_ANALYSIS_LOOPINVARIANCE_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include <optional>
#include <vector>

namespace torchtidy {

/// Where a value that is the same in every iteration comes from.
struct InvariantOrigin {
  /// The variable or member, declared before the loop, that holds the value
  /// or the host memory a `from_blob` in the loop wraps; null for a value
  /// built from constants alone.
  const clang::ValueDecl *Holder = nullptr;
  /// The call in the loop that builds the tensor again in each iteration (a
  /// factory, `torch::tensor`, `from_blob`); null where the loop only reads
  /// Holder.
  const clang::CallExpr *Rebuilt = nullptr;
};

/// A copy off the host of a tensor that is the same each time the copy
/// runs.
struct InvariantTransfer {
  /// Where it runs in the loop or function: the copy, or the call of the
  /// helper that makes it.
  const clang::CallExpr *Site = nullptr;
  /// The copy (`.to(device)`, `.cuda()`).
  const clang::CallExpr *Transfer = nullptr;
  /// For a copy in a helper: the parameter whose argument it copies.
  const clang::ParmVarDecl *Parameter = nullptr;
  /// Where the copied tensor comes from, in the loop's terms.
  InvariantOrigin Origin;
};

class LoopInvariance {
public:
  /// The values of one loop's iterations.
  LoopInvariance(const clang::Stmt *Loop, const clang::SourceManager &SM);
  /// The values of one function's calls: only what its body builds from
  /// constants is the same in every call.
  static LoopInvariance perCall(const clang::FunctionDecl *Function,
                                const clang::SourceManager &SM);
  /// The values of the calls of a function that are given the same
  /// arguments each time: what it builds from constants and from the
  /// parameters its body does not change. A tensor parameter is the
  /// Holder of what comes from it.
  static LoopInvariance sameArguments(const clang::FunctionDecl *Function,
                                      const clang::SourceManager &SM);

  /// Where E's value comes from, when it is the same in every iteration;
  /// none when it may differ, or when that cannot be told.
  std::optional<InvariantOrigin> originOf(const clang::Expr *E) const;

  /// The copies off the host the body makes itself (not in a loop or a
  /// lambda under it) of a tensor that is the same each time, to a target
  /// that is the same each time in a loop (a function's callers give it
  /// their device), and that the body does not then write in place; and, in
  /// a loop, the calls of helpers the program defines, given the same
  /// arguments in every iteration, that copy what a parameter they leave
  /// alone gives them (`toDevice(weights, device)`), one per call.
  std::vector<InvariantTransfer> transfersOfSameTensor() const;

  /// Whether the body stores Result in a variable and then writes that
  /// variable in place (`buf[i] = v`, `buf.index_put_(...)`, `buf.add_(x)`):
  /// each pass needs a fresh tensor, whatever it is built from.
  bool isChangedInPlace(const clang::Expr *Result) const;

private:
  LoopInvariance(const clang::Stmt *Body, const clang::Stmt *Loop,
                 const clang::FunctionDecl *GivenParameters,
                 const clang::SourceManager &SM);
  std::optional<InvariantOrigin> originOf(const clang::Expr *E,
                                          unsigned Depth) const;
  /// originOf for an expression under its value-preserving wrappers.
  std::optional<InvariantOrigin> originOfExpression(const clang::Expr *E,
                                                    unsigned Depth) const;
  std::optional<InvariantOrigin> originOfCall(const clang::CallExpr *Call,
                                              unsigned Depth) const;
  std::optional<InvariantOrigin>
  originOfVariable(const clang::VarDecl *Var, unsigned Depth) const;
  bool isDeclaredInBody(const clang::Decl *D) const;
  /// Whether a variable declared outside the body has one value throughout
  /// it: declared before the loop and not in its header, or a parameter
  /// the calls give the same each time.
  bool isSetBeforeBody(const clang::VarDecl *Var) const;

  /// The loop's body, or the function's.
  const clang::Stmt *Body;
  /// The whole loop, header included; null per call.
  const clang::Stmt *Loop;
  /// The function whose parameters are the same in every call, if any.
  const clang::FunctionDecl *GivenParameters;
  const clang::SourceManager &SM;
};

} // namespace torchtidy

#endif // TORCHTIDY_ANALYSIS_LOOPINVARIANCE_H
