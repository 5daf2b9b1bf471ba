//===--- TorchTidyMain.cpp - The torchtidy command ------------------------===//
//
//   torchtidy [options] [<file>...] [-- <compiler flags>]
//   torchtidy run|validate|replay ...   (the runtime checker)
//
// Lints files (or every file of the compilation database) with the libtorch
// checks, finds the clang-tidy module (--print-plugin-path) and prints a
// check's page (--explain). Exit codes:
// 0 no findings, 1 findings, 2 usage or input errors (including a translation
// unit clang could not parse; the other files are still linted).
//
//===----------------------------------------------------------------------===//

#include "Frontend/CheckTable.h"
#include "Lint/FindingWriters.h"
#include "Lint/LintScheduler.h"
#include "Lint/LintSession.h"
#include "Lint/ResultCache.h"
#include "Lint/SharedPrefixPch.h"
#include "Lsp/LanguageServer.h"
#include "Runtime/RuntimeCommands.h"

#include "clang-tidy/ClangTidy.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

using namespace clang;
namespace cl = llvm::cl;

namespace {

enum ExitCode { NoFindings = 0, Findings = 1, UsageOrInputError = 2 };
enum class Format { Text, Json, Sarif };

cl::OptionCategory Category("torchtidy options");
cl::list<std::string> Files(cl::Positional, cl::desc("[<file>...]"),
                            cl::cat(Category));
cl::opt<std::string>
    BuildPath("p", cl::desc("build directory holding compile_commands.json"),
              cl::value_desc("build-dir"), cl::cat(Category));
cl::list<std::string> ExtraArgs("extra-arg",
                                cl::desc("extra compiler argument to append"),
                                cl::cat(Category));
cl::list<std::string>
    ExtraArgsBefore("extra-arg-before",
                    cl::desc("extra compiler argument to prepend"),
                    cl::cat(Category));
cl::opt<std::string> LevelName(
    "level",
    cl::desc("checks up to this level, after .clang-tidy and before --checks: "
             "bug, performance (and bug) or style (everything)"),
    cl::cat(Category));
cl::opt<std::string> Checks("checks",
                            cl::desc("check globs applied after .clang-tidy, "
                                     "e.g. -*,libtorch-mixed-device-operands"),
                            cl::cat(Category));
// A plain string, validated here, so a bad value gets torchtidy's one-line
// error rather than the command-line library's.
cl::opt<std::string> FormatName("format",
                                cl::desc("output format: text, json or sarif"),
                                cl::init("text"), cl::cat(Category));
cl::opt<bool> Fix("fix", cl::desc("apply the fix-its"), cl::cat(Category));
cl::opt<unsigned> Jobs("j", cl::desc("translation units linted in parallel"),
                       cl::init(1), cl::cat(Category));
cl::opt<std::string> ExportFixes("export-fixes",
                                 cl::desc("write fixes as clang-tidy YAML"),
                                 cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> CacheDir(
    "cache-dir",
    cl::desc("where results are cached (default: <build-dir>/.torchtidy-cache "
             "when a compilation database is used)"),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<bool> NoCache("no-cache", cl::desc("lint every file, read no cache"),
                      cl::cat(Category));
cl::opt<bool> CacheStats(
    "cache-stats",
    cl::desc("print cache hits and misses, what the files shared, and how many "
             "were linted again for other files' facts, on stderr"),
    cl::cat(Category));
cl::opt<bool> NoProjectFacts(
    "no-project-facts",
    cl::desc("analyse each file on its own: calls of functions that other "
             "files define stay unknown, as in a single-file lint"),
    cl::cat(Category));
cl::opt<std::string> Index(
    "index", cl::ValueOptional,
    cl::desc("write the project's facts for the single-file front-ends (the "
             "clang-tidy module, the compiler plugin) to <file>, by default "
             "<build-dir>/torchtidy-facts.json; prints no findings"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> ProjectFactsFile(
    "project-facts",
    cl::desc("read the facts of the project's other files from an index "
             "that --index wrote"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> NoSharedPch(
    "no-shared-pch",
    cl::desc("parse every file whole, even where several start with the same "
             "system includes under the same flags"),
    cl::cat(Category));
cl::opt<bool> ListChecks("list-checks",
                         cl::desc("list every check: name, level, summary"),
                         cl::cat(Category));
cl::opt<std::string> Explain("explain",
                             cl::desc("print the check's documentation page"),
                             cl::value_desc("check"), cl::cat(Category));
cl::opt<std::string> PrintPluginPath(
    "print-plugin-path", cl::ValueOptional,
    cl::desc("print the clang-tidy module built for this LLVM version; "
             "=clang: the compiler plugin (clang++ -fplugin=...)"),
    cl::cat(Category));

int fail(const llvm::Twine &Reason) {
  llvm::errs() << "torchtidy: error: " << Reason << "\n";
  return UsageOrInputError;
}

int fail(llvm::Error Reason) { return fail(llvm::toString(std::move(Reason))); }

/// A reason the command stops with a usage or input error, for fail().
llvm::Error inputError(const llvm::Twine &Reason) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Reason);
}

std::string pluginPath(const char *Argv0, llvm::StringRef FileName) {
  static int Anchor;
  std::string Exe = llvm::sys::fs::getMainExecutable(Argv0, &Anchor);
  // bin/torchtidy next to lib/<plugin>, in the build tree and installed.
  llvm::SmallString<256> Path(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
  llvm::sys::path::append(Path, "lib", FileName);
  return std::string(Path);
}

/// Drops the files that do not exist from a whole-database run: a big
/// project's database lists generated sources that are not generated yet, and
/// sources of other configurations. Returns how many were dropped and the
/// first of them.
std::pair<size_t, std::string>
dropMissingFiles(std::vector<std::string> &Inputs) {
  std::pair<size_t, std::string> Dropped{0, ""};
  llvm::erase_if(Inputs, [&](const std::string &File) {
    if (llvm::sys::fs::exists(File))
      return false;
    if (Dropped.first++ == 0)
      Dropped.second = File;
    return true;
  });
  return Dropped;
}

std::string realPath(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Path, Real))
    return Path.str();
  return std::string(Real);
}

/// The directory holding the compilation database, if it comes from one:
/// -p, or the first directory upward from the first file (or the current
/// directory) holding one, as the database was found.
std::optional<std::string> buildDirectory(bool FromDashDash) {
  if (FromDashDash)
    return std::nullopt;
  if (!BuildPath.empty())
    return BuildPath.getValue();
  llvm::SmallString<256> Dir;
  if (!Files.empty()) {
    Dir = Files.front();
    llvm::sys::fs::make_absolute(Dir);
    llvm::sys::path::remove_filename(Dir);
  } else {
    llvm::sys::fs::current_path(Dir);
  }
  for (llvm::StringRef D = Dir; !D.empty(); D = llvm::sys::path::parent_path(D))
    for (const char *Name : {"compile_commands.json", "compile_flags.txt"}) {
      llvm::SmallString<256> Candidate(D);
      llvm::sys::path::append(Candidate, Name);
      if (llvm::sys::fs::exists(Candidate))
        return D.str();
    }
  return std::nullopt;
}

/// The cache's identity of this build of torchtidy: a rebuilt binary may
/// check differently, so its size and time are part of it.
std::string toolIdentity(const char *Argv0) {
  static int Anchor;
  std::string Exe = llvm::sys::fs::getMainExecutable(Argv0, &Anchor);
  llvm::sys::fs::file_status Status;
  std::string Identity = "torchtidy " TORCHTIDY_VERSION " LLVM " +
                         std::to_string(TORCHTIDY_LLVM_MAJOR) + " " + Exe;
  if (!llvm::sys::fs::status(Exe, Status))
    Identity +=
        " " + std::to_string(Status.getSize()) + " " +
        std::to_string(
            Status.getLastModificationTime().time_since_epoch().count());
  return Identity;
}

/// Why the compile_commands.json in the build directory does not load, if
/// there is one that does not: unreadable, not JSON, not a list of commands.
std::optional<std::string>
unloadableDatabase(const std::optional<std::string> &BuildDir) {
  if (!BuildDir)
    return std::nullopt;
  llvm::SmallString<256> Json(*BuildDir);
  llvm::sys::path::append(Json, "compile_commands.json");
  if (!llvm::sys::fs::exists(Json))
    return std::nullopt;
  std::string Error;
  if (tooling::JSONCompilationDatabase::loadFromFile(
          Json, Error, tooling::JSONCommandLineSyntax::AutoDetect))
    return std::nullopt;
  uint64_t Size = 0;
  if (!llvm::sys::fs::file_size(Json, Size) && Size == 0)
    Error = "the file is empty";
  else if (Error.empty())
    Error = "not a list of compile commands";
  return "cannot use '" + std::string(Json) +
         "': " + llvm::StringRef(Error).trim().split('\n').first.str();
}

/// The database: `--` flags, -p <dir>, or found upward from the first file
/// (or the current directory), as clang tools do.
std::unique_ptr<tooling::CompilationDatabase>
loadDatabase(std::unique_ptr<tooling::CompilationDatabase> FromDashDash,
             std::string &Error) {
  if (FromDashDash)
    return FromDashDash;
  if (!BuildPath.empty())
    return tooling::CompilationDatabase::loadFromDirectory(BuildPath, Error);
  if (!Files.empty())
    return tooling::CompilationDatabase::autoDetectFromSource(Files.front(),
                                                              Error);
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  return tooling::CompilationDatabase::autoDetectFromDirectory(Cwd, Error);
}

/// torchtidy run|validate|replay: the runtime checker's commands, which
/// parse their own options.
int runtimeCommand(int Argc, const char **Argv) {
  // The shim in lib/ like the plugins; torchtidy-replay next to torchtidy.
  static int Anchor;
  llvm::SmallString<256> Replay(llvm::sys::path::parent_path(
      llvm::sys::fs::getMainExecutable(Argv[0], &Anchor)));
  llvm::sys::path::append(Replay, "torchtidy-replay");
  return torchtidy::runtimeCommandMain(
      llvm::ArrayRef(Argv + 1, Argc - 1),
      {pluginPath(Argv[0], "libtorchtidy_rt.so"), std::string(Replay),
       "this torchtidy was built without LibTorch; --runtime-dir names a "
       "build of runtime/"});
}

/// torchtidy lsp: the language server, where this LLVM has the library it
/// is built on.
int languageServerCommand(int Argc, const char **Argv) {
#ifdef TORCHTIDY_LANGUAGE_SERVER
  static int Anchor;
  std::string Exe = llvm::sys::fs::getMainExecutable(Argv[0], &Anchor);
  // The installed check pages (<prefix>/share/doc/...), else those of the
  // source tree this build came from.
  llvm::SmallString<256> Docs(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
  llvm::sys::path::append(Docs, TORCHTIDY_INSTALLED_CHECK_DOCS);
  if (!llvm::sys::fs::is_directory(Docs))
    Docs = TORCHTIDY_SOURCE_CHECK_DOCS;
  return torchtidy::languageServerMain(llvm::ArrayRef(Argv + 2, Argc - 2),
                                       {Exe, std::string(Docs)});
#else
  llvm::errs() << "torchtidy: error: lsp: not built for LLVM "
               << TORCHTIDY_LLVM_MAJOR
               << ": the language server is built on LLVM's LSP library "
                  "(llvm/Support/LSP), which LLVM ships from version 22; use "
                  "a torchtidy built with LLVM 22\n";
  return UsageOrInputError;
#endif
}

#define TORCHTIDY_QUOTE(X) #X
#define TORCHTIDY_TEXT_OF(X) TORCHTIDY_QUOTE(X)

/// Parses the lint's options. The compiler flags after `--`, if any, come
/// back as a database of their own; null without them.
llvm::Expected<std::unique_ptr<tooling::CompilationDatabase>>
parseCommandLine(int Argc, const char **Argv) {
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter([](llvm::raw_ostream &OS) {
    OS << "torchtidy " TORCHTIDY_VERSION " (LLVM " << TORCHTIDY_LLVM_MAJOR
       << ")\n";
  });
  std::string DashDashError;
  std::unique_ptr<tooling::CompilationDatabase> FromDashDash =
      tooling::FixedCompilationDatabase::loadFromCommandLine(Argc, Argv,
                                                             DashDashError);
  std::string ParseErrors;
  llvm::raw_string_ostream ParseErrorStream(ParseErrors);
  if (!cl::ParseCommandLineOptions(
          Argc, Argv,
          "torchtidy: device-placement checks for LibTorch code\n\n"
          "  The runtime checker: torchtidy run|validate|replay --help\n"
#ifdef TORCHTIDY_LANGUAGE_SERVER
          "  The language server for editors: torchtidy lsp --help\n",
#else
          "  The language server for editors (torchtidy lsp): not built "
          "for LLVM " TORCHTIDY_TEXT_OF(TORCHTIDY_LLVM_MAJOR)
          ", it needs LLVM 22\n",
#endif
          &ParseErrorStream)) {
    llvm::StringRef First =
        llvm::StringRef(ParseErrors).trim().split('\n').first;
    First.consume_front("torchtidy: ");
    return inputError(First);
  }
  return std::move(FromDashDash);
}

/// --format, one of those torchtidy writes.
llvm::Expected<Format> outputFormat() {
  std::optional<Format> OutputFormat =
      llvm::StringSwitch<std::optional<Format>>(FormatName)
          .Case("text", Format::Text)
          .Case("json", Format::Json)
          .Case("sarif", Format::Sarif)
          .Default(std::nullopt);
  if (!OutputFormat)
    return inputError("unknown --format '" + FormatName +
                      "' (use text, json or sarif)");
  return *OutputFormat;
}

/// --level, a level of the checks; none when not given.
llvm::Expected<std::optional<torchtidy::CheckLevel>> checkLevel() {
  if (!LevelName.getNumOccurrences())
    return std::nullopt;
  std::optional<torchtidy::CheckLevel> Level =
      torchtidy::parseCheckLevel(LevelName);
  if (!Level)
    return inputError("unknown --level '" + LevelName +
                      "' (use bug, performance or style)");
  return Level;
}

/// --list-checks: every check's name, level and summary.
int listChecks() {
  for (const torchtidy::CheckInfo &Check : torchtidy::AllChecks)
    llvm::outs() << llvm::left_justify(Check.Name, 40) << " "
                 << llvm::left_justify(Check.Level, 12) << " " << Check.Summary
                 << "\n";
  return NoFindings;
}

/// --explain: a check's page.
int explain(llvm::StringRef Check) {
  // The page embedded for SARIF help (docs/checks/<check>.md), so it
  // matches this binary's checks even where no docs are installed.
  llvm::StringRef Page = torchtidy::documentationOf(Check);
  if (Page.empty())
    return fail("no check named '" + Check +
                "' (torchtidy --list-checks lists them)");
  llvm::outs() << Page;
  if (!Page.ends_with("\n"))
    llvm::outs() << "\n";
  return NoFindings;
}

/// --print-plugin-path: the clang-tidy module built with this torchtidy,
/// or with =clang the compiler plugin.
int printPluginPath(const char *Argv0) {
  llvm::StringRef Kind = PrintPluginPath;
  if (!Kind.empty() && Kind != "clang-tidy" && Kind != "clang")
    return fail("unknown --print-plugin-path='" + Kind +
                "' (use clang-tidy or clang)");
  std::string Path =
      pluginPath(Argv0, Kind == "clang" ? TORCHTIDY_CLANG_PLUGIN
                                        : TORCHTIDY_CLANG_TIDY_MODULE);
  if (!llvm::sys::fs::exists(Path))
    return fail("plugin not found at '" + Path + "'");
  llvm::outs() << Path << "\n";
  return NoFindings;
}

/// The exit code of the information command asked for (--list-checks,
/// --explain, --print-plugin-path), which ends the command without a lint;
/// none when none was asked for.
std::optional<int> informationCommand(const char *Argv0) {
  if (ListChecks)
    return listChecks();
  if (Explain.getNumOccurrences())
    return explain(Explain);
  if (PrintPluginPath.getNumOccurrences())
    return printPluginPath(Argv0);
  return std::nullopt;
}

/// Every file named on the command line is one torchtidy can read.
llvm::Error checkNamedFilesReadable() {
  for (const std::string &File : Files)
    if (!llvm::sys::fs::is_regular_file(File) ||
        !llvm::MemoryBuffer::getFile(File))
      return inputError("cannot read '" + File + "'");
  return llvm::Error::success();
}

/// The database loadDatabase finds, or why there is none to use.
llvm::Expected<std::unique_ptr<tooling::CompilationDatabase>>
openDatabase(std::unique_ptr<tooling::CompilationDatabase> FromDashDash,
             const std::optional<std::string> &BuildDir) {
  std::string DatabaseError;
  std::unique_ptr<tooling::CompilationDatabase> Database =
      loadDatabase(std::move(FromDashDash), DatabaseError);
  if (Database)
    return std::move(Database);
  // There is one, but it does not load: say why, not that there is none.
  if (std::optional<std::string> Broken = unloadableDatabase(BuildDir))
    return inputError(*Broken);
  return inputError("no compilation database: " +
                    llvm::StringRef(DatabaseError).trim().split('\n').first +
                    " (pass -p <build-dir>, or flags after --)");
}

/// --extra-arg-before and --extra-arg, in every compile command.
void addExtraArgs(tooling::ArgumentsAdjustingCompilations &Adjusted) {
  Adjusted.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
      std::vector<std::string>(ExtraArgsBefore.begin(), ExtraArgsBefore.end()),
      tooling::ArgumentInsertPosition::BEGIN));
  Adjusted.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
      std::vector<std::string>(ExtraArgs.begin(), ExtraArgs.end()),
      tooling::ArgumentInsertPosition::END));
}

/// The files to lint: those named, or every file the database lists that
/// exists; each one a file the database compiles.
llvm::Expected<std::vector<std::string>>
inputFiles(const tooling::CompilationDatabase &Database) {
  std::vector<std::string> Inputs(Files.begin(), Files.end());
  if (Inputs.empty())
    Inputs = Database.getAllFiles();
  if (Inputs.empty())
    return inputError("the compilation database lists no files");
  // Databases guess commands for files they do not list; torchtidy lints
  // what the build compiles, so an unlisted file is an input error.
  std::vector<std::string> Listed = Database.getAllFiles();
  llvm::StringSet<> ListedPaths;
  for (const std::string &File : Listed) {
    // A relative "directory" leaves its files nowhere in particular.
    if (!llvm::sys::path::is_absolute(File))
      return inputError("the compilation database lists '" + File +
                        "' under a relative directory; its \"directory\" "
                        "entries must be absolute paths");
    ListedPaths.insert(realPath(File));
  }
  if (Files.empty()) {
    size_t ListedCount = Inputs.size();
    auto [Missing, FirstMissing] = dropMissingFiles(Inputs);
    if (Inputs.empty())
      return inputError(
          "none of the " + llvm::Twine(ListedCount) +
          " files the compilation database lists exists (the first: '" +
          FirstMissing + "')");
    if (Missing)
      llvm::errs() << "torchtidy: warning: skipped " << Missing << " of the "
                   << ListedCount
                   << " files the compilation database lists: they do not "
                      "exist (the first: '"
                   << FirstMissing << "')\n";
  }
  for (const std::string &File : Inputs)
    if (Database.getCompileCommands(File).empty() ||
        (!Listed.empty() && !ListedPaths.contains(realPath(File))))
      return inputError("'" + File + "' is not in the compilation database");
  return std::move(Inputs);
}

/// Where --index writes the project's facts: its file, or
/// <build-dir>/torchtidy-facts.json; "" without --index.
llvm::Expected<std::string>
indexPath(const std::optional<std::string> &BuildDir) {
  bool Indexing = Index.getNumOccurrences() > 0;
  std::string IndexPath = Index;
  if (Indexing && IndexPath.empty()) {
    if (!BuildDir)
      return inputError("--index needs a file (--index=<file>) when no build "
                        "directory holds the compilation database");
    llvm::SmallString<256> Path(*BuildDir);
    llvm::sys::path::append(Path, "torchtidy-facts.json");
    IndexPath = std::string(Path);
  }
  // Said before the lint, not after it.
  if (llvm::StringRef Folder = llvm::sys::path::parent_path(IndexPath);
      Indexing && !Folder.empty() && !llvm::sys::fs::is_directory(Folder))
    return inputError("cannot write the index '" + IndexPath +
                      "': no folder '" + Folder + "'");
  return std::move(IndexPath);
}

/// What a lint of the inputs uses for the whole run: the request and what it
/// points to.
struct LintSetup {
  torchtidy::LintRequest Request;
  torchtidy::LintRunStats Stats;
  std::optional<torchtidy::ProjectFacts> Project;
  std::optional<torchtidy::ResultCache> Cache;
  llvm::SmallString<256> CacheDirectory;
  std::optional<torchtidy::SharedPrefixPch> Sharing;
  /// Where the shared PCHs go when there is no cache, removed after the run.
  llvm::SmallString<256> ScratchPchDirectory;
};

/// The project's facts, when the inputs are a project. Several files are one
/// project; so is one file linted against an index, and every run that
/// writes one.
llvm::Error setUpProjectFacts(LintSetup &Setup, size_t InputCount,
                              bool Indexing) {
  if (NoProjectFacts && (Indexing || !ProjectFactsFile.empty()))
    return inputError(llvm::Twine(Indexing ? "--index" : "--project-facts") +
                      " uses project facts, which --no-project-facts turns "
                      "off");
  if (!NoProjectFacts &&
      (InputCount > 1 || Indexing || !ProjectFactsFile.empty())) {
    Setup.Project.emplace();
    if (!ProjectFactsFile.empty())
      if (llvm::Error E = Setup.Project->readIndex(ProjectFactsFile))
        return inputError("--project-facts: " + llvm::toString(std::move(E)));
    // Every file of the database: the calls its files make are all the
    // calls of the project's functions (or the index, of all of them, says
    // so).
    if (Files.empty())
      Setup.Project->setWholeProgram(true);
    Setup.Request.Project = &*Setup.Project;
  }
  return llvm::Error::success();
}

/// Some check runs on File: --checks globs or a .clang-tidy that turn every
/// check off are said to be so, rather than linting for nothing.
llvm::Error checkSomeCheckEnabled(torchtidy::LintSession &Session,
                                  const std::string &File) {
  if (!Session.enabledChecks(File).empty())
    return llvm::Error::success();
  return inputError(Checks.empty()
                        ? "no check is enabled for '" + File +
                              "' (its .clang-tidy turns them all off)"
                        : "--checks='" + Checks + "' enables no check");
}

/// The result cache: --cache-dir, else <build-dir>/.torchtidy-cache when
/// the database is a build's; none with --no-cache.
void setUpCache(LintSetup &Setup, const std::optional<std::string> &BuildDir,
                const char *Argv0) {
  if (!NoCache && (!CacheDir.empty() || BuildDir)) {
    Setup.CacheDirectory = CacheDir;
    if (Setup.CacheDirectory.empty()) {
      Setup.CacheDirectory = *BuildDir;
      llvm::sys::path::append(Setup.CacheDirectory, ".torchtidy-cache");
    }
    llvm::sys::fs::make_absolute(Setup.CacheDirectory);
    Setup.Cache.emplace(std::string(Setup.CacheDirectory), toolIdentity(Argv0));
    Setup.Request.Cache = &*Setup.Cache;
  }
}

/// Files that start with the same system includes under the same flags
/// parse against one PCH of that start: kept with the cache, or for this
/// run only without one. One file alone parses against a kept one.
void setUpSharedPch(LintSetup &Setup, size_t InputCount, const char *Argv0) {
  if (!NoSharedPch && (InputCount >= 2 || Setup.Cache)) {
    llvm::SmallString<256> PchDirectory = Setup.CacheDirectory;
    if (Setup.Cache) {
      llvm::sys::path::append(PchDirectory, "pch");
    } else if (!llvm::sys::fs::createUniqueDirectory(
                   "torchtidy-pch", Setup.ScratchPchDirectory)) {
      PchDirectory = Setup.ScratchPchDirectory;
    }
    if (!PchDirectory.empty()) {
      Setup.Sharing.emplace(std::string(PchDirectory), toolIdentity(Argv0),
                            /*KeptAcrossRuns=*/Setup.Cache.has_value());
      Setup.Request.Sharing = &*Setup.Sharing;
    }
  }
}

/// A run's progress on stderr, [Done/Total] File, when it lints several
/// files: on a terminal one line that updates in place; in a log, a line a
/// file.
void printProgress(size_t Done, size_t Total, llvm::StringRef File) {
  static const bool Terminal = llvm::errs().is_displayed();
  if (Total < 2)
    return;
  llvm::errs() << (Terminal ? "\r\x1b[K" : "") << "[" << Done << "/" << Total
               << "] " << File << (Terminal ? "" : "\n");
  if (Terminal && Done == Total)
    llvm::errs() << "\r\x1b[K";
}

/// What the run did, on stderr: a cache it could not write; with
/// --cache-stats, what the cache, the shared PCHs and the project's facts
/// spared or cost; files whose facts did not settle.
void printRunStatistics(const LintSetup &Setup) {
  if (Setup.Cache) {
    // The run's results stand; a cache that cannot be written only costs
    // the next run time.
    if (std::string Error = Setup.Cache->writeError(); !Error.empty())
      llvm::errs() << "torchtidy: warning: results not cached: " << Error
                   << "\n";
    if (CacheStats)
      llvm::errs() << "torchtidy: cache: " << Setup.Cache->hits() << " hit(s), "
                   << Setup.Cache->misses() << " miss(es)\n";
  }
  if (Setup.Sharing && CacheStats)
    llvm::errs() << "torchtidy: shared prefix: "
                 << Setup.Sharing->unitsParsedAgainstPch()
                 << " file(s) parsed against a PCH; " << Setup.Sharing->built()
                 << " PCH(s) built, " << Setup.Sharing->reused() << " reused; "
                 << Setup.Sharing->notShareable() << " file(s) not shareable\n";
  if (CacheStats && Setup.Project)
    llvm::errs() << "torchtidy: project: " << Setup.Stats.Linted
                 << " file(s) linted, " << Setup.Stats.LintedAgain
                 << " of them again for facts from other files\n";
  if (!Setup.Stats.Unsettled.empty()) {
    llvm::errs() << "torchtidy: warning: the facts of "
                 << Setup.Stats.Unsettled.size()
                 << " file(s) had not settled when they had been linted "
                 << torchtidy::MaxLintsPerFile
                 << " times; findings that would rest on them may be "
                    "missing:";
    for (const std::string &File : Setup.Stats.Unsettled)
      llvm::errs() << " " << File;
    llvm::errs() << "\n";
  }
}

/// --index: the project's facts for the single-file front-ends, instead of
/// the findings.
int writeIndex(const torchtidy::ProjectFacts &Project,
               const std::string &IndexPath, bool ParseFailed) {
  // Written whole or not at all: a front-end never reads half an index.
  if (llvm::Error E =
          llvm::writeToOutput(IndexPath, [&](llvm::raw_ostream &Out) {
            Project.writeIndex(Out);
            return llvm::Error::success();
          }))
    return fail("cannot write the index '" + IndexPath +
                "': " + llvm::toString(std::move(E)));
  llvm::errs() << "torchtidy: " << Project.factCount() << " fact(s) from "
               << Project.unitCount() << " file(s) written to '" << IndexPath
               << "'\n";
  // An index with a file missing is still the rest of the project's.
  if (ParseFailed)
    llvm::errs() << "torchtidy: warning: some files could not be parsed; "
                    "the index has no facts of them, and gives no function "
                    "what its callers in other files pass it\n";
  return NoFindings;
}

/// The findings on stdout, in the --format asked for.
void printFindings(Format OutputFormat, torchtidy::LintSession &Session,
                   const std::vector<torchtidy::Finding> &Results) {
  switch (OutputFormat) {
  case Format::Text:
    Session.printText(Results);
    break;
  case Format::Json:
    torchtidy::writeJson(Results, llvm::outs());
    break;
  case Format::Sarif: {
    llvm::SmallString<256> Root;
    llvm::sys::fs::current_path(Root);
    torchtidy::writeSarif(Results, Root, llvm::outs());
    break;
  }
  }
}

/// --export-fixes: the findings' fixes as clang-tidy YAML.
llvm::Error exportFixes(const std::vector<torchtidy::Finding> &Results,
                        llvm::StringRef MainFile) {
  if (ExportFixes.empty())
    return llvm::Error::success();
  std::error_code EC;
  llvm::raw_fd_ostream OS(ExportFixes, EC, llvm::sys::fs::OF_None);
  if (EC)
    return inputError("cannot write '" + ExportFixes + "': " + EC.message());
  clang::tidy::exportReplacements(MainFile, Results, OS);
  return llvm::Error::success();
}

} // namespace

int main(int Argc, const char **Argv) {
  if (Argc > 1 && torchtidy::isRuntimeCommand(Argv[1]))
    return runtimeCommand(Argc, Argv);
  if (Argc > 1 && llvm::StringRef(Argv[1]) == "lsp")
    return languageServerCommand(Argc, Argv);
  llvm::Expected<std::unique_ptr<tooling::CompilationDatabase>> FromDashDash =
      parseCommandLine(Argc, Argv);
  if (!FromDashDash)
    return fail(FromDashDash.takeError());
  llvm::Expected<Format> OutputFormat = outputFormat();
  if (!OutputFormat)
    return fail(OutputFormat.takeError());
  llvm::Expected<std::optional<torchtidy::CheckLevel>> Level = checkLevel();
  if (!Level)
    return fail(Level.takeError());
  if (std::optional<int> Exit = informationCommand(Argv[0]))
    return *Exit;

  // The inputs: the files, the database that compiles them, the index.
  if (llvm::Error E = checkNamedFilesReadable())
    return fail(std::move(E));
  std::optional<std::string> BuildDir =
      buildDirectory(*FromDashDash != nullptr);
  llvm::Expected<std::unique_ptr<tooling::CompilationDatabase>> Database =
      openDatabase(std::move(*FromDashDash), BuildDir);
  if (!Database)
    return fail(Database.takeError());
  tooling::ArgumentsAdjustingCompilations Adjusted(std::move(*Database));
  addExtraArgs(Adjusted);
  llvm::Expected<std::vector<std::string>> Inputs = inputFiles(Adjusted);
  if (!Inputs)
    return fail(Inputs.takeError());
  bool Indexing = Index.getNumOccurrences() > 0;
  llvm::Expected<std::string> IndexPath = indexPath(BuildDir);
  if (!IndexPath)
    return fail(IndexPath.takeError());

  // The request, and what it points to.
  LintSetup Setup;
  Setup.Request.Stats = &Setup.Stats;
  if (llvm::Error E = setUpProjectFacts(Setup, Inputs->size(), Indexing))
    return fail(std::move(E));
  Setup.Request.Level = *Level;
  Setup.Request.Checks = Checks;
  Setup.Request.Jobs = Jobs;
  torchtidy::LintSession Session(Setup.Request);
  if (llvm::Error E = checkSomeCheckEnabled(Session, Inputs->front()))
    return fail(std::move(E));
  if (Jobs == 0)
    return fail("-j needs at least 1 job");
  setUpCache(Setup, BuildDir, Argv[0]);
  setUpSharedPch(Setup, Inputs->size(), Argv[0]);

  std::vector<torchtidy::Finding> Results = torchtidy::lintInParallel(
      Setup.Request, Adjusted, *Inputs, printProgress);
  printRunStatistics(Setup);
  if (!Setup.ScratchPchDirectory.empty())
    llvm::sys::fs::remove_directories(Setup.ScratchPchDirectory);

  // The results: the index, or the findings and their fixes.
  bool ParseFailed = llvm::any_of(Results, torchtidy::isCompilerError);
  if (Indexing)
    return writeIndex(*Setup.Project, *IndexPath, ParseFailed);
  printFindings(*OutputFormat, Session, Results);
  if (llvm::Error E = exportFixes(Results, Inputs->front()))
    return fail(std::move(E));
  if (Fix) {
    unsigned Applied = torchtidy::applyFixes(Results);
    llvm::errs() << "torchtidy: applied the fixes of " << Applied
                 << " finding(s)\n";
  }

  if (ParseFailed) {
    llvm::errs() << "torchtidy: error: some files could not be parsed\n";
    return UsageOrInputError;
  }
  return Results.empty() ? NoFindings : Findings;
}
