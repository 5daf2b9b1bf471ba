//===--- LintDiagnostics.h - A lint's findings as LSP diagnostics -*- C++ -*-=//
//
// What `torchtidy lsp` publishes for a file, made from what the torchtidy
// command printed for it (--format=json): one diagnostic per finding in the
// file, its notes as related information and its fix-its as a quick fix;
// one diagnostic saying why, where the lint could not check the file.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_TOOLS_TORCHTIDY_LSP_LINTDIAGNOSTICS_H
#define TORCHTIDY_TOOLS_TORCHTIDY_LSP_LINTDIAGNOSTICS_H

#include "BackgroundLints.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/LSP/Protocol.h"

#include <string>
#include <vector>

namespace torchtidy {

/// A finding's fix-its, offered as a code action on its diagnostic.
struct QuickFix {
  llvm::lsp::Range Range;       ///< The diagnostic's range.
  llvm::json::Value Diagnostic; ///< The diagnostic it resolves.
  llvm::json::Value Action;     ///< The CodeAction, with its edit.
};

/// What the server publishes for one file.
struct FileDiagnostics {
  std::vector<llvm::json::Value> Diagnostics;
  std::vector<QuickFix> Fixes;
  /// Why nothing was published, for the client's log (a file the database
  /// does not compile, such as a header); "" otherwise.
  std::string Skipped;
};

/// The diagnostics for File from its lint's Output. DocsFolder holds the
/// check pages (docs/checks) that a diagnostic's code links to.
FileDiagnostics diagnosticsOf(llvm::StringRef File, const LintOutput &Output,
                              llvm::StringRef DocsFolder);

/// One diagnostic at the top of File saying Message, at Information
/// severity: what the server says about the file rather than its code.
llvm::json::Value fileNotice(llvm::StringRef Message);

} // namespace torchtidy

#endif // TORCHTIDY_TOOLS_TORCHTIDY_LSP_LINTDIAGNOSTICS_H
