//===--- LanguageServer.h - torchtidy lsp -----------------------*- C++ -*-===//
//
// torchtidy's findings in the editor: a Language Server Protocol server on
// standard input and output (docs/editors.md), built on LLVM's LSP support
// library. It lints a file when it is opened and when it is saved, as the
// torchtidy command lints it (the build's compile_commands.json, its result
// cache, the shared LibTorch parse, the project's index), and publishes the
// findings as diagnostics with their fix-its as quick fixes.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_TOOLS_TORCHTIDY_LSP_LANGUAGESERVER_H
#define TORCHTIDY_TOOLS_TORCHTIDY_LSP_LANGUAGESERVER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace torchtidy {

/// Where the server finds what it runs and links to.
struct LanguageServerInstallation {
  std::string TorchTidy;  ///< The torchtidy command that lints a file.
  std::string DocsFolder; ///< The check pages a diagnostic's code links to.
};

/// `torchtidy lsp <Args>`: serves one client until it exits; returns the
/// exit code (0 after a shutdown request, 1 without one, 2 on bad options).
int languageServerMain(llvm::ArrayRef<const char *> Args,
                       const LanguageServerInstallation &Installation);

} // namespace torchtidy

#endif // TORCHTIDY_TOOLS_TORCHTIDY_LSP_LANGUAGESERVER_H
