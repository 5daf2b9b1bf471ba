//===--- Mutation.h - Bug classes injected into correct programs -*- C++
//-*-===//
//
// A mutation is one bug of one class injected at one site of a correct
// program: a set of source edits and the check that should then report it.
// The sites are found on the AST (through the LibTorch model the checks use),
// so a mutant differs from its program only where the bug class says.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_BENCH_MUTATION_H
#define TORCHTIDY_BENCH_MUTATION_H

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace torchtidy::mutate {

/// One replacement of the original text: [Offset, Offset + Length) becomes
/// Text. Offsets are into the main file.
struct Edit {
  unsigned Offset;
  unsigned Length;
  std::string Text;
};

struct Mutation {
  /// The bug class ("drop-target-migration"), see mutationOperators().
  llvm::StringRef Operator;
  /// The check that should report the injected bug.
  llvm::StringRef ExpectedCheck;
  /// The line of the main edit, for the label.
  unsigned Line;
  std::vector<Edit> Edits;
};

struct MutationOperator {
  llvm::StringRef Name;
  llvm::StringRef ExpectedCheck;
  llvm::StringRef Description;
};

/// Every bug class the tool injects, with the check that should find it.
const std::vector<MutationOperator> &mutationOperators();

/// Every mutation site in the main file of the translation unit, in source
/// order per operator. Code from macros and other files is left alone.
std::vector<Mutation> findMutations(clang::ASTContext &Ctx);

/// The original text with the mutation's edits applied; empty when edits
/// overlap (never the case for the sites findMutations() returns).
std::string applyMutation(llvm::StringRef Original, const Mutation &M);

} // namespace torchtidy::mutate

#endif // TORCHTIDY_BENCH_MUTATION_H
