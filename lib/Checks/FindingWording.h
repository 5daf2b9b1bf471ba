//===--- FindingWording.h - Shared words, notes and fix-its -----*- C++ -*-===//
//
// How the checks say where a value is and why, the notes that show where
// each operand got its device, and the one fix-it shape several checks use
// (calling a method on an operand). Kept in one place so every check speaks
// the same language.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_CHECKS_FINDINGWORDING_H
#define TORCHTIDY_CHECKS_FINDINGWORDING_H

#include "Analysis/DeviceFlow.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "clang/Basic/Diagnostic.h"

namespace torchtidy {

/// Why a value is where it is, for the main message: "it comes from the
/// data-loader batch", "created by 'torch::ones' without a device".
std::string reasonFor(const AbstractValue &Value);
/// The same, as " (reason)" to follow a device, or "" when there is none.
std::string reasonInParens(const AbstractValue &Value);

/// One note per step of the operand's history ("'data' is moved to 'device'
/// here with '.to(device)'"), most recent first.
void addOriginNotes(clang::tidy::ClangTidyCheck &Check, const Operand &O);

/// One note per later use of the same left-behind value
/// (MixedDeviceSite::LaterUses): the finding's fix covers them too.
void addLaterUseNotes(clang::tidy::ClangTidyCheck &Check,
                      const MixedDeviceSite &Site);

/// For a site on a path where a LibTorch error is thrown and caught
/// (MixedDeviceSite::OnThrowPath): a note where the path starts, at the call
/// that throws, and one at the handler that says what it leaves apart.
void addThrowPathNotes(clang::tidy::ClangTidyCheck &Check,
                       const MixedDeviceSite &Site);

/// Fix-its that turn `E` into `E<Suffix>` (e.g. `target.to(device)`), adding
/// parentheses when E is not a postfix expression. Empty inside macros.
llvm::SmallVector<clang::FixItHint, 2>
appendToExpression(const clang::Expr *E, llvm::StringRef Suffix,
                   const clang::ASTContext &Ctx);

/// `E<Suffix>` as text, with parentheses when E needs them: "x.to(device)",
/// "(a * 2).to(device)". Matches what appendToExpression inserts.
std::string spellWithSuffix(const Operand &O, llvm::StringRef Suffix);

/// "->" for module handles (holders, shared_ptr), "." for module objects.
llvm::StringRef moduleAccessor(const clang::Expr *Module);

} // namespace torchtidy

#endif // TORCHTIDY_CHECKS_FINDINGWORDING_H
