//===--- AnalysisContext.h - Per-TU cache of device-flow results -*- C++
//-*-===//
//
// Every device-flow check looks at the same functions. The analysis runs once
// per function and translation unit; the checks share the result.
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

/// Forgets every result. Called when a translation unit ends: its AST, and
/// with it every pointer in the results, is about to be freed.
void forgetDeviceFlowResults();

} // namespace torchtidy

#endif // TORCHTIDY_ANALYSIS_ANALYSISCONTEXT_H
