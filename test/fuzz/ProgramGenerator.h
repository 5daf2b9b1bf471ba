//===--- ProgramGenerator.h - LibTorch programs from fuzzer bytes -*- C++
//-*-===//
//
// Turns arbitrary bytes into a LibTorch training function that always
// compiles: each byte picks a statement shape (a move, a module call, a loss,
// an accumulation, a branch on the device, a loop over batches, a tuple, a
// helper, a lambda...) and the tensors it works on. Random text mostly stops
// at the parser; these programs reach the deepest parts of the device-flow
// analysis (joins at branches, loop fixpoints, summaries of helpers).
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_TEST_FUZZ_PROGRAMGENERATOR_H
#define TORCHTIDY_TEST_FUZZ_PROGRAMGENERATOR_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace torchtidy::fuzz {

/// A complete translation unit (it relies on LibTorch's headers being
/// included, by a precompiled header or otherwise). The same bytes always
/// give the same program.
std::string generateProgram(const uint8_t *Bytes, size_t Size);

} // namespace torchtidy::fuzz

#endif // TORCHTIDY_TEST_FUZZ_PROGRAMGENERATOR_H
