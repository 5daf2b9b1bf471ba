//===--- SummaryData.h - A function summary as data -------------*- C++ -*-===//
//
// A FunctionSummary points into one AST: its parameters are ParmVarDecls,
// its notes SourceLocations, its devices declarations. Written as data (JSON
// text), the same summary can be read by any translation unit that declares
// the function: parameters become positions, locations file and offset (any
// edit that moves a note changes the summary, and so what its users cached),
// and a device is named by a parameter, by the method's class (the module's
// device) or by a field of that class; a device named by anything else keeps
// its devices and loses its name.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_ANALYSIS_SUMMARYDATA_H
#define TORCHTIDY_ANALYSIS_SUMMARYDATA_H

#include "Analysis/DeviceFlow.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class SourceManager;
} // namespace clang

namespace torchtidy {

/// The summary of Definition as JSON text.
std::string writeSummary(const FunctionSummary &Summary,
                         const clang::FunctionDecl *Definition,
                         const clang::SourceManager &Sources);

/// The summary that writeSummary wrote, in terms of Declaration (a
/// declaration of the same function in this translation unit): its
/// parameters, its class, and locations in Sources. Files this unit did not
/// read are added to Sources, and to OpenedForNotes. None when the text is
/// not such a summary or does not fit Declaration.
std::optional<FunctionSummary>
readSummary(llvm::StringRef Text, const clang::FunctionDecl *Declaration,
            clang::SourceManager &Sources,
            std::vector<std::string> &OpenedForNotes);

/// What a project says of a module class whose constructor another unit
/// defines: whether it holds parameters (moduleHoldsParameters in
/// Model/Modules.h), and where that constructor is.
struct ModuleParametersFact {
  bool HoldsParameters = false;
  clang::SourceLocation Constructor;
};

/// The fact as JSON text, with Constructor's place.
std::string writeModuleParameters(bool HoldsParameters,
                                  const clang::CXXConstructorDecl *Constructor,
                                  const clang::SourceManager &Sources);

/// The fact that writeModuleParameters wrote, with its place in Sources (as
/// readSummary). None when the text is not such a fact.
std::optional<ModuleParametersFact>
readModuleParameters(llvm::StringRef Text, clang::SourceManager &Sources,
                     std::vector<std::string> &OpenedForNotes);

/// What the calls one unit makes of a function of another unit pass one of
/// its parameters: their arguments, joined; where the first of them passes
/// it; and the function that makes that call.
struct PassedArgument {
  AbstractValue Value;
  clang::SourceLocation At;
  std::string Caller;
};

/// Per parameter of a function, what one unit's calls pass it; none where
/// that is unknown.
using PassedArguments = std::vector<std::optional<PassedArgument>>;

/// What a unit's calls of Callee pass it (CallerContext.h), as JSON text:
/// per parameter, the joined arguments, or none where they are unknown. A
/// value's device is named only by a parameter of Callee (the caller passed
/// its device variable along); any other name is the caller's own.
std::string writeCallsFact(const PassedArguments &Parameters,
                           const clang::FunctionDecl *Callee,
                           const clang::SourceManager &Sources);

/// The calls fact of a unit that refers to the function other than by calls
/// its analysis follows (takes its address, calls it from a template).
std::string writeEscapingCallsFact();

/// The fact that writeCallsFact wrote, in terms of Definition's parameters,
/// with its places in Sources (as readSummary). None when the unit's calls
/// are not all seen, or the text is not such a fact or does not fit
/// Definition.
std::optional<PassedArguments>
readCallsFact(llvm::StringRef Text, const clang::FunctionDecl *Definition,
              clang::SourceManager &Sources,
              std::vector<std::string> &OpenedForNotes);

} // namespace torchtidy

#endif // TORCHTIDY_ANALYSIS_SUMMARYDATA_H
