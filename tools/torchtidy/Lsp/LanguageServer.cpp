//===--- LanguageServer.cpp - torchtidy lsp -------------------------------===//

#include "LanguageServer.h"
#include "BackgroundLints.h"
#include "LintDiagnostics.h"
#include "Runtime/CommandArguments.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/LSP/Transport.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <optional>

namespace json = llvm::json;
namespace lsp = llvm::lsp;

namespace torchtidy {
namespace {

/// What `torchtidy lsp` was started with.
struct ServerOptions {
  /// The folder of compile_commands.json; "" to look for it as clangd does.
  std::string DatabaseFolder;
  unsigned Jobs = 1;
  std::string Checks;
  std::string Level;
};

/// The parts of `initialize` the server reads: clangd's option naming the
/// database's folder, so that one client setting serves both servers.
struct InitializeRequest {
  std::optional<std::string> DatabaseFolder;
};

bool fromJSON(const json::Value &Value, InitializeRequest &Result,
              json::Path Path) {
  if (const json::Object *Params = Value.getAsObject())
    if (const json::Object *Options =
            Params->getObject("initializationOptions"))
      if (std::optional<llvm::StringRef> Folder =
              Options->getString("compilationDatabasePath"))
        Result.DatabaseFolder = Folder->str();
  return true;
}

/// textDocument/didSave: the saved file (its text is read from disk).
struct SavedDocument {
  lsp::TextDocumentIdentifier Document;
};

bool fromJSON(const json::Value &Value, SavedDocument &Result,
              json::Path Path) {
  json::ObjectMapper Mapper(Value, Path);
  return Mapper && Mapper.map("textDocument", Result.Document);
}

bool hasDatabase(llvm::StringRef Folder) {
  for (const char *Name : {"compile_commands.json", "compile_flags.txt"}) {
    llvm::SmallString<256> Candidate(Folder);
    llvm::sys::path::append(Candidate, Name);
    if (llvm::sys::fs::exists(Candidate))
      return true;
  }
  return false;
}

class TorchTidyServer {
public:
  TorchTidyServer(lsp::MessageHandler &Handler, ServerOptions Options,
                  LanguageServerInstallation Installation)
      : Options(std::move(Options)), Installation(std::move(Installation)),
        Publish(Handler.outgoingNotification<json::Value>(
            "textDocument/publishDiagnostics")),
        Log(Handler.outgoingNotification<json::Value>("window/logMessage")),
        Lints(this->Options.Jobs,
              [this](const std::string &File, const LintOutput &Output) {
                published(File, Output);
              }) {
    Handler.method("initialize", this, &TorchTidyServer::initialize);
    Handler.method("shutdown", this, &TorchTidyServer::shutdown);
    Handler.method("textDocument/codeAction", this,
                   &TorchTidyServer::codeAction);
    Handler.notification("textDocument/didOpen", this,
                         &TorchTidyServer::opened);
    Handler.notification("textDocument/didChange", this,
                         &TorchTidyServer::changed);
    Handler.notification("textDocument/didSave", this, &TorchTidyServer::saved);
    Handler.notification("textDocument/didClose", this,
                         &TorchTidyServer::closed);
  }

  bool shutdownRequested() const { return ShutdownRequested; }

private:
  void initialize(const InitializeRequest &Request,
                  lsp::Callback<json::Value> Reply) {
    if (Options.DatabaseFolder.empty() && Request.DatabaseFolder)
      Options.DatabaseFolder = *Request.DatabaseFolder;
    // The server lints the file as saved, on open and on save; it asks for
    // changes (incremental, the cheapest) only to know that a buffer no
    // longer matches the lint its quick fixes come from.
    Reply(json::Object{
        {"capabilities",
         json::Object{
             {"textDocumentSync",
              json::Object{{"openClose", true},
                           {"change", 2},
                           {"save", json::Object{{"includeText", false}}}}},
             {"codeActionProvider",
              json::Object{{"codeActionKinds", json::Array{"quickfix"}}}}}},
        {"serverInfo",
         json::Object{{"name", "torchtidy"}, {"version", TORCHTIDY_VERSION}}}});
  }

  void shutdown(const lsp::NoParams &, lsp::Callback<json::Value> Reply) {
    ShutdownRequested = true;
    Lints.stop();
    Reply(nullptr);
  }

  void opened(const lsp::DidOpenTextDocumentParams &Params) {
    std::string File = Params.textDocument.uri.file().str();
    bool Unsaved = false;
    if (auto OnDisk = llvm::MemoryBuffer::getFile(File))
      Unsaved = (*OnDisk)->getBuffer() != Params.textDocument.text;
    {
      std::lock_guard<std::mutex> Guard(StateLock);
      Open.insert(File);
      if (Unsaved)
        UnsavedAtOpen.insert(File);
    }
    lint(File);
  }

  void changed(const lsp::DidChangeTextDocumentParams &Params) {
    std::lock_guard<std::mutex> Guard(StateLock);
    Edited.insert(Params.textDocument.uri.file());
  }

  void saved(const SavedDocument &Params) {
    std::string File = Params.Document.uri.file().str();
    {
      std::lock_guard<std::mutex> Guard(StateLock);
      UnsavedAtOpen.erase(File);
      Edited.erase(File);
      if (!Open.contains(File))
        return;
    }
    lint(File);
  }

  void closed(const lsp::DidCloseTextDocumentParams &Params) {
    std::string File = Params.textDocument.uri.file().str();
    Lints.cancel(File);
    std::lock_guard<std::mutex> Guard(StateLock);
    Open.erase(File);
    UnsavedAtOpen.erase(File);
    Edited.erase(File);
    Fixes.erase(File);
    publish(File, {});
  }

  void codeAction(const lsp::CodeActionParams &Params,
                  lsp::Callback<json::Value> Reply) {
    // By line: a client asks for the actions at its cursor (Neovim) or for
    // the selected lines, and a user expects the fix of the finding on the
    // line the cursor is on.
    auto Overlaps = [&](const lsp::Range &Range) {
      return Range.start.line <= Params.range.end.line &&
             Params.range.start.line <= Range.end.line;
    };
    json::Array Actions;
    {
      std::lock_guard<std::mutex> Guard(StateLock);
      // A fix's edits are positions in the text the lint read: applied to
      // a buffer edited since, they would land in the wrong place.
      auto It = Fixes.find(Params.textDocument.uri.file());
      if (It != Fixes.end() && !Edited.contains(It->first()))
        for (const QuickFix &Fix : It->second)
          if (Overlaps(Fix.Range))
            Actions.push_back(Fix.Action);
    }
    Reply(std::move(Actions));
  }

  /// The folder of the file's compile_commands.json: the one given, else
  /// the first of the file's folder and its parents that holds one, or
  /// whose build/ does, as clangd looks.
  std::optional<std::string> databaseFolderOf(llvm::StringRef File) const {
    if (!Options.DatabaseFolder.empty())
      return hasDatabase(Options.DatabaseFolder)
                 ? std::optional<std::string>(Options.DatabaseFolder)
                 : std::nullopt;
    for (llvm::StringRef Folder = llvm::sys::path::parent_path(File);
         !Folder.empty(); Folder = llvm::sys::path::parent_path(Folder)) {
      if (hasDatabase(Folder))
        return Folder.str();
      llvm::SmallString<256> Build(Folder);
      llvm::sys::path::append(Build, "build");
      if (hasDatabase(Build))
        return std::string(Build);
    }
    return std::nullopt;
  }

  /// Lints the file as the torchtidy command would with the build's
  /// database; with the project's index where `torchtidy --index` wrote one
  /// in its default place, so calls into other files are known.
  void lint(const std::string &File) {
    std::optional<std::string> Folder = databaseFolderOf(File);
    if (!Folder) {
      // Looked up again on each save: the database may be generated later.
      std::lock_guard<std::mutex> Guard(StateLock);
      publish(File,
              {fileNotice(
                  Options.DatabaseFolder.empty()
                      ? "torchtidy did not check this file: no "
                        "compile_commands.json in its folder, its parents or "
                        "their build/ folders (generate one, e.g. with CMake's "
                        "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON)"
                      : "torchtidy did not check this file: no "
                        "compile_commands.json in '" +
                            Options.DatabaseFolder + "'")});
      return;
    }
    std::vector<std::string> Command = {Installation.TorchTidy, "--format=json",
                                        "-p", *Folder};
    llvm::SmallString<256> IndexFile(*Folder);
    llvm::sys::path::append(IndexFile, "torchtidy-facts.json");
    if (llvm::sys::fs::exists(IndexFile))
      Command.insert(Command.end(),
                     {"--project-facts", std::string(IndexFile)});
    if (!Options.Checks.empty())
      Command.push_back("--checks=" + Options.Checks);
    if (!Options.Level.empty())
      Command.push_back("--level=" + Options.Level);
    Command.push_back(File);
    if (Lints.lint(File, std::move(Command)))
      Log(json::Object{{"type", int64_t(lsp::MessageType::Log)},
                       {"message", "torchtidy: ended the lint of '" + File +
                                       "' that had started before this save"}});
  }

  /// A lint ended (on a worker thread): its findings, published.
  void published(const std::string &File, const LintOutput &Output) {
    FileDiagnostics Result =
        diagnosticsOf(File, Output, Installation.DocsFolder);
    if (!Result.Skipped.empty())
      Log(json::Object{{"type", int64_t(lsp::MessageType::Info)},
                       {"message", "torchtidy: " + Result.Skipped}});
    // Published under the lock, so that a close, which publishes nothing
    // for the file, comes after it and is what the editor keeps.
    std::lock_guard<std::mutex> Guard(StateLock);
    if (!Open.contains(File))
      return;
    if (UnsavedAtOpen.contains(File))
      Result.Diagnostics.push_back(fileNotice(
          "torchtidy lints the file as saved: this buffer had changes that "
          "were not saved when it was opened (save to lint them)"));
    Fixes[File] = std::move(Result.Fixes);
    publish(File, std::move(Result.Diagnostics));
  }

  /// Sends the file's diagnostics (under StateLock).
  void publish(llvm::StringRef File, std::vector<json::Value> Diagnostics) {
    llvm::Expected<lsp::URIForFile> Uri = lsp::URIForFile::fromFile(File);
    if (!Uri) {
      llvm::consumeError(Uri.takeError());
      return;
    }
    json::Array Published;
    for (json::Value &Diagnostic : Diagnostics)
      Published.push_back(std::move(Diagnostic));
    Publish(json::Object{{"uri", Uri->uri().str()},
                         {"diagnostics", std::move(Published)}});
  }

  ServerOptions Options;
  const LanguageServerInstallation Installation;
  std::mutex StateLock;
  llvm::StringSet<> Open;
  llvm::StringSet<> UnsavedAtOpen;
  /// Files changed in the editor since they were last saved.
  llvm::StringSet<> Edited;
  llvm::StringMap<std::vector<QuickFix>> Fixes;
  bool ShutdownRequested = false;
  lsp::OutgoingNotification<json::Value> Publish;
  lsp::OutgoingNotification<json::Value> Log;
  // Last: its workers call published(), which uses the members above, and
  // are joined when it is destroyed, first.
  BackgroundLints Lints;
};

void printHelp() {
  llvm::outs()
      << "USAGE: torchtidy lsp [options]\n\n"
         "A Language Server Protocol server on standard input and output: "
         "lints a C++ file\nwhen the editor opens or saves it, as `torchtidy "
         "-p <build-dir> <file>` does,\nand publishes the findings as "
         "diagnostics with their fix-its as quick fixes.\nSee "
         "docs/editors.md (installed under share/doc/torchtidy).\n\n"
         "OPTIONS:\n"
         "  --compile-commands-dir <dir>  the folder of compile_commands.json "
         "(default: the\n"
         "                                file's folder or a parent, or their "
         "build/)\n"
         "  -j <n>                        files linted at once (default: "
         "half the cores)\n"
         "  --checks <globs>              as for torchtidy\n"
         "  --level <level>               as for torchtidy\n"
         "  --log <error|info|verbose>    what the server logs on stderr "
         "(default: error)\n";
}

} // namespace

int languageServerMain(llvm::ArrayRef<const char *> Args,
                       const LanguageServerInstallation &Installation) {
  CommandArguments Arguments(
      Args, {"--compile-commands-dir", "-j", "--checks", "--level", "--log"},
      {"--help"});
  if (Arguments.flag("--help")) {
    printHelp();
    return 0;
  }
  auto Error = [](const llvm::Twine &Reason) {
    llvm::errs() << "torchtidy: error: lsp: " << Reason << "\n";
    return 2;
  };
  if (Arguments.error())
    return Error(*Arguments.error());
  if (!Arguments.afterDashDash().empty())
    return Error("takes no arguments after '--'");
  ServerOptions Options;
  Options.DatabaseFolder =
      Arguments.value("--compile-commands-dir").value_or("");
  if (!Options.DatabaseFolder.empty()) {
    llvm::SmallString<256> Absolute(Options.DatabaseFolder);
    llvm::sys::fs::make_absolute(Absolute);
    Options.DatabaseFolder = std::string(Absolute);
  }
  Options.Jobs =
      std::max(1u, llvm::hardware_concurrency().compute_thread_count() / 2);
  if (std::optional<std::string> Jobs = Arguments.value("-j"))
    if (llvm::StringRef(*Jobs).getAsInteger(10, Options.Jobs) ||
        Options.Jobs == 0)
      return Error("-j needs a number of jobs, at least 1 (not '" + *Jobs +
                   "')");
  Options.Checks = Arguments.value("--checks").value_or("");
  Options.Level = Arguments.value("--level").value_or("");
  std::string LogLevel = Arguments.value("--log").value_or("error");
  if (LogLevel == "error")
    lsp::Logger::setLogLevel(lsp::Logger::Level::Error);
  else if (LogLevel == "info")
    lsp::Logger::setLogLevel(lsp::Logger::Level::Info);
  else if (LogLevel == "verbose")
    lsp::Logger::setLogLevel(lsp::Logger::Level::Debug);
  else
    return Error("--log takes error, info or verbose (not '" + LogLevel + "')");

  lsp::JSONTransport Transport(stdin, llvm::outs());
  lsp::MessageHandler Handler(Transport);
  TorchTidyServer Server(Handler, std::move(Options), Installation);
  llvm::Error Ended = Transport.run(Handler);
  // The input ended without an exit notification: the client went away.
  if (Ended)
    llvm::consumeError(std::move(Ended));
  return Server.shutdownRequested() ? 0 : 1;
}

} // namespace torchtidy
