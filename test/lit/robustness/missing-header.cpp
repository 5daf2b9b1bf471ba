// A header that is not found is a fatal error: clang stops instantiating
// templates, so a variable of a class template type (std::pair<float,
// float>) has a type without a definition. Found on public code whose
// Boost header was missing: the analysis crashed on such a variable. Now:
// the error as clang reports it, and exit codes 1 (clang-tidy) and 2
// (torchtidy), not a crash.
// RUN: %clang_tidy %s --checks='%bug_checks' -- %torch_flags > %t.out 2>&1; test $? -eq 1
// RUN: FileCheck %s --input-file=%t.out --implicit-check-not='warning:'
// RUN: %torchtidy %s -- %torch_flags > %t.driver 2>&1; test $? -eq 2
// RUN: FileCheck %s --input-file=%t.driver --implicit-check-not='warning:'
// CHECK: error: 'not_there.hpp' file not found
#include <torch/torch.h>
#include "not_there.hpp"

int main() {
  constexpr std::pair<float, float> output_range = {-1.0, 1.0};
  auto x = torch::ones({2}) * output_range.first;
  return 0;
}
