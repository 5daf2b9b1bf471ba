//===--- ParseSetup.h - What every parse of the lint shares -----*- C++ -*-===//
//
// How the lint sets up a parse, for the parses that must agree with it: a
// file's own (LintSession) and the precompiled header of a shared prefix
// (SharedPrefixPch), which clang refuses to load into a parse set up
// otherwise. Apart from both, so that neither includes the other.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_TOOLS_TORCHTIDY_PARSESETUP_H
#define TORCHTIDY_TOOLS_TORCHTIDY_PARSESETUP_H

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/Support/VirtualFileSystem.h"

namespace clang {
class CompilerInvocation;
} // namespace clang

namespace torchtidy {

/// What the lint changes in every parse's invocation that decides what the
/// preprocessor defines; a precompiled header the lint loads must be built
/// with the same, or clang refuses it.
void setUpPreprocessorAsTheLintDoes(clang::CompilerInvocation &Invocation);

/// The file system for one ClangTool of a run whose tools run in parallel,
/// with a working directory of its own. ClangTool sets the working
/// directory of its file system to each command's directory and back; the
/// real file system's is the process's, shared by every thread, so another
/// thread's relative paths (the main file `train.cpp`, its `"net.h"`) would
/// resolve against whichever directory was set last.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystemForOneTool();

} // namespace torchtidy

#endif // TORCHTIDY_TOOLS_TORCHTIDY_PARSESETUP_H
