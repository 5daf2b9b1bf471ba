//===--- ParseSetup.cpp - What every parse of the lint shares -------------===//

#include "ParseSetup.h"

#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Lex/PreprocessorOptions.h"

using namespace clang;

namespace torchtidy {

void setUpPreprocessorAsTheLintDoes(CompilerInvocation &Invocation) {
  // As clang-tidy does: code guarded by __clang_analyzer__ is linted.
  Invocation.getPreprocessorOpts().SetUpStaticAnalyzer = true;
}

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystemForOneTool() {
  return llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>(
      llvm::vfs::createPhysicalFileSystem().release());
}

} // namespace torchtidy
