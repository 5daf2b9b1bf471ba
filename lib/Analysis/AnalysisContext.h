//===--- AnalysisContext.h - Per-TU cache of device-flow results -*- C++
//-*-===//
//
// Every device-flow check looks at the same functions. The analysis runs once
// per function and translation unit; the checks share the result. Callers
// share the summaries of the functions they call the same way.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_ANALYSIS_ANALYSISCONTEXT_H
#define TORCHTIDY_ANALYSIS_ANALYSISCONTEXT_H

#include "Analysis/DeviceFlow.h"

namespace torchtidy {

/// The device-flow result of a function in the current translation unit,
/// computed on first request.
const DeviceFlowResult &deviceFlowOf(const clang::FunctionDecl *Function,
                                     clang::ASTContext &Ctx);

/// The summary of a function defined in the current translation unit, for
/// its callers; computed on first request. Null while that function's own
/// summary is being computed (recursion) and past a nesting depth of
/// MaxSummaryNesting, where callers fall back to assuming the worst.
const FunctionSummary *
deviceFlowSummaryOf(const clang::FunctionDecl *Definition,
                    clang::ASTContext &Ctx);

/// A chain of helpers calling helpers is summarised this deep, no deeper.
constexpr unsigned MaxSummaryNesting = 8;

/// Forgets every result (module members' registration included). Called when a
/// translation unit ends: its AST, and with it every pointer in the results, is
/// about to be freed.
void forgetDeviceFlowResults();

} // namespace torchtidy

#endif // TORCHTIDY_ANALYSIS_ANALYSISCONTEXT_H
