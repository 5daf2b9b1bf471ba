//===- Problems.h - What the shim could not do ------------------*- C++ -*-===//
//
// The shim never stops the program: what it cannot do (a bad environment
// value, an unwritable report path) it says once on stderr, prefixed
// `torchtidy-rt:`, and lists under the report's "problems".
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_RUNTIME_SHIM_PROBLEMS_H
#define TORCHTIDY_RUNTIME_SHIM_PROBLEMS_H

#include <string>
#include <vector>

namespace torchtidy::rt {

/// Records \p Sentence and prints it on stderr, the first time only.
void reportProblem(const std::string &Sentence);

/// The problems recorded so far, in order.
std::vector<std::string> problems();

/// Writes "torchtidy-rt: <Sentence>" on stderr without stdio, so that the
/// program's own stderr buffering is left as it is.
void warn(const std::string &Sentence);

} // namespace torchtidy::rt

#endif
