//===--- LintSession.cpp - One lint's clang-tidy context ------------------===//

#include "LintSession.h"
#include "ParseSetup.h"

#include "Analysis/UnitAnalysis.h"
#include "Frontend/PrecompiledVTables.h"
#include "Frontend/UserCodeScope.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorLexer.h"
#include "clang/Serialization/ASTReader.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <functional>

using namespace clang;
using namespace clang::tidy;

namespace torchtidy {

static llvm::IntrusiveRefCntPtr<DiagnosticIDs> newDiagnosticIds() {
#if LLVM_VERSION_MAJOR >= 22
  return DiagnosticIDs::create();
#else
  return new DiagnosticIDs;
#endif
}

LintSession::LintSession(const LintRequest &Request)
    : Context(std::make_unique<ClangTidyContext>(
          makeOptionsProvider(Request.Level, Request.Checks))),
      DiagnosticIds(newDiagnosticIds()) {}

LintSession::~LintSession() = default;

std::string LintSession::optionsText(llvm::StringRef File) {
  return configurationAsText(Context->getOptionsForFile(File));
}

std::vector<std::string> LintSession::enabledChecks(llvm::StringRef File) {
  ClangTidyOptions Options = Context->getOptionsForFile(File);
#if LLVM_VERSION_MAJOR >= 22
  return getCheckNames(Options, /*AllowEnablingAnalyzerAlphaCheckers=*/false,
                       /*ExperimentalCustomChecks=*/false);
#else
  return getCheckNames(Options, /*AllowEnablingAnalyzerAlphaCheckers=*/false);
#endif
}

namespace {

/// Around the checks, when a file is linted as part of a project: the
/// summaries the file provides are computed before the checks run (which
/// then find them cached), and what the checks read of the other files'
/// facts is taken after.
class ProjectFactsConsumer : public ASTConsumer {
public:
  enum Moment { BeforeChecks, AfterChecks };
  ProjectFactsConsumer(Moment When, UnitFacts &Facts)
      : When(When), Facts(Facts) {}
  void HandleTranslationUnit(ASTContext &Context) override {
    UnitAnalysis &Unit = UnitAnalysis::of(Context);
    if (When == BeforeChecks)
      Facts.Summaries.merge(Unit.providedFacts());
    else
      Facts.Used.merge(Unit.takeUsedFacts());
  }

private:
  Moment When;
  UnitFacts &Facts;
};

/// For each header an `#include` does not find, the folders where it would
/// appear: on the way to each place the preprocessor looks (the includer's
/// folder, every search folder), the deepest that exists. A file or folder
/// created there changes that folder's entries, so a result that rests on
/// them (a unit that stopped at a missing header) is not reused once the
/// header exists. A header map or framework is recorded as itself: a
/// change inside a framework's Headers/ is not seen, as a new header that
/// shadows a found one is not (ResultCache.h).
class MissingHeaderFolders : public PPCallbacks {
public:
  MissingHeaderFolders(const Preprocessor &PP,
                       std::function<void(llvm::StringRef)> Record)
      : PP(PP), Record(std::move(Record)) {}

  bool FileNotFound(llvm::StringRef FileName) override {
    std::vector<std::string> Places;
    auto LookIn = [&](llvm::StringRef Folder) {
      llvm::SmallString<256> Place(Folder);
      llvm::sys::path::append(Place, FileName);
      Places.push_back(std::string(Place));
    };
    if (llvm::sys::path::is_absolute(FileName)) {
      Places.push_back(FileName.str());
    } else {
      // Looked in for a quoted include only; for an angled one too, which
      // costs a stat.
      if (PreprocessorLexer *Includer = PP.getCurrentFileLexer())
        if (OptionalFileEntryRef File = Includer->getFileEntry())
          LookIn(llvm::sys::path::parent_path(File->getName()));
      for (const DirectoryLookup &Lookup :
           PP.getHeaderSearchInfo().search_dir_range()) {
        if (OptionalDirectoryEntryRef Folder = Lookup.getDirRef())
          LookIn(Folder->getName());
        else
          Record(Lookup.getName());
      }
    }
    for (llvm::StringRef Place : Places) {
      llvm::StringRef Folder = llvm::sys::path::parent_path(Place);
      llvm::vfs::FileSystem &Files = PP.getFileManager().getVirtualFileSystem();
      while (!Folder.empty() && !Files.status(Folder))
        Folder = llvm::sys::path::parent_path(Folder);
      if (!Folder.empty())
        Record(Folder);
    }
    return false; // the error stands
  }

private:
  const Preprocessor &PP;
  std::function<void(llvm::StringRef)> Record;
};

/// clang-tidy's checks behind a user-code traversal scope; records every
/// file the translation unit read, precompiled headers included, and the
/// folders where a header it did not find would appear.
class LintAction : public ASTFrontendAction {
public:
  LintAction(ClangTidyASTConsumerFactory &Checks, FileResult &Result,
             bool InProject)
      : Checks(Checks), Result(Result), InProject(InProject) {}

  std::unique_ptr<ASTConsumer>
  CreateASTConsumer(CompilerInstance &Compiler, llvm::StringRef File) override {
    // The file as the command names it may be relative to the command's
    // directory: that is the compiler's file system's working directory,
    // not the process's, which the .clang-tidy lookup would use.
    llvm::SmallString<256> Absolute(File);
    Compiler.getVirtualFileSystem().makeAbsolute(Absolute);
    std::unique_ptr<ASTConsumer> Inner =
        Checks.createASTConsumer(Compiler, Absolute);
    if (InProject) {
      std::vector<std::unique_ptr<ASTConsumer>> Parts;
      Parts.push_back(std::make_unique<ProjectFactsConsumer>(
          ProjectFactsConsumer::BeforeChecks, Result.Facts));
      Parts.push_back(std::move(Inner));
      Parts.push_back(std::make_unique<ProjectFactsConsumer>(
          ProjectFactsConsumer::AfterChecks, Result.Facts));
      Inner = std::make_unique<MultiplexConsumer>(std::move(Parts));
    }
    return std::make_unique<UserCodeScopeConsumer>(Compiler.getSourceManager(),
                                                   std::move(Inner));
  }

  bool BeginSourceFileAction(CompilerInstance &Compiler) override {
    Compiler.getPreprocessor().addPPCallbacks(
        std::make_unique<MissingHeaderFolders>(
            Compiler.getPreprocessor(),
            [this](llvm::StringRef Folder) { record(Folder); }));
    return ASTFrontendAction::BeginSourceFileAction(Compiler);
  }

  // The lint emits no code: see Frontend/PrecompiledVTables.h.
  void ExecuteAction() override {
    leavePrecompiledSystemVTablesUndefined(*this);
    ASTFrontendAction::ExecuteAction();
  }

  void EndSourceFileAction() override {
    CompilerInstance &Compiler = getCompilerInstance();
    const SourceManager &Sources = Compiler.getSourceManager();
    // Another unit's file that a note from its facts points into is not an
    // input: the facts are, and the used facts' digests stand for them.
    std::vector<std::string> NoteFiles;
    if (Compiler.hasASTContext())
      NoteFiles =
          UnitAnalysis::of(Compiler.getASTContext()).takeFilesOpenedForNotes();
    for (auto It = Sources.fileinfo_begin(); It != Sources.fileinfo_end(); ++It)
      if (!llvm::is_contained(NoteFiles, It->first.getName()))
        record(It->first.getName());
    if (auto Reader = Compiler.getASTReader())
      for (const serialization::ModuleFile &Module : Reader->getModuleManager())
        record(Module.FileName);
  }

private:
  /// Paths are relative to the compile command's directory, the working
  /// directory of the compiler's file system.
  void record(llvm::StringRef Path) {
    llvm::SmallString<256> Absolute(Path);
    getCompilerInstance().getVirtualFileSystem().makeAbsolute(Absolute);
    // Not "..": through a symlinked directory it names another place.
    llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/false);
    Result.Inputs.push_back(std::string(Absolute));
  }

  ClangTidyASTConsumerFactory &Checks;
  FileResult &Result;
  bool InProject;
};

class LintActionFactory : public tooling::FrontendActionFactory {
public:
  LintActionFactory(ClangTidyContext &Context, FileResult &Result,
                    bool InProject)
      : Checks(Context), Result(Result), InProject(InProject) {}

  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<LintAction>(Checks, Result, InProject);
  }

  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *Diagnostics) override {
    setUpPreprocessorAsTheLintDoes(*Invocation);
    // Findings are printed by torchtidy, not the compiler: no "N warnings
    // generated" line.
    Invocation->getDiagnosticOpts().ShowCarets = false;
    return FrontendActionFactory::runInvocation(Invocation, Files,
                                                PCHContainerOps, Diagnostics);
  }

private:
  ClangTidyASTConsumerFactory Checks;
  FileResult &Result;
  bool InProject;
};

} // namespace

tooling::CommandLineArguments
LintSession::withOptionsArguments(const tooling::CommandLineArguments &Args,
                                  llvm::StringRef File) {
  ClangTidyOptions Options = Context->getOptionsForFile(File);
  tooling::CommandLineArguments Adjusted = Args;
  if (Options.ExtraArgsBefore) {
    auto It = Adjusted.begin();
    if (It != Adjusted.end() && !llvm::StringRef(*It).starts_with("-"))
      ++It; // after the compiler's name
    Adjusted.insert(It, Options.ExtraArgsBefore->begin(),
                    Options.ExtraArgsBefore->end());
  }
  if (Options.ExtraArgs)
    Adjusted.insert(Adjusted.end(), Options.ExtraArgs->begin(),
                    Options.ExtraArgs->end());
  return Adjusted;
}

std::optional<tooling::CompileCommand>
LintSession::adjustedCommand(const tooling::CompilationDatabase &Database,
                             llvm::StringRef File) {
  std::vector<tooling::CompileCommand> Commands =
      Database.getCompileCommands(File);
  if (Commands.size() != 1)
    return std::nullopt;
  tooling::CompileCommand Command = std::move(Commands.front());
  Command.CommandLine = tooling::getStripPluginsAdjuster()(
      withOptionsArguments(Command.CommandLine, Command.Filename),
      Command.Filename);
  return Command;
}

FileResult LintSession::lintFile(const tooling::CompilationDatabase &Database,
                                 llvm::StringRef File, llvm::StringRef PchPath,
                                 const ProjectFacts *Project) {
  // What clang-tidy's runClangTidy does, with LintAction in place of its
  // action: .clang-tidy ExtraArgs, no plugins, findings collected by
  // clang-tidy's diagnostic consumer (NOLINT, fix-its, conflicts).
  tooling::ClangTool Tool(Database, {File.str()},
                          std::make_shared<PCHContainerOperations>(),
                          fileSystemForOneTool());
  Tool.setPrintErrorMessage(false);
  Tool.appendArgumentsAdjuster([this](const tooling::CommandLineArguments &Args,
                                      llvm::StringRef Filename) {
    return withOptionsArguments(Args, Filename);
  });
  Tool.appendArgumentsAdjuster(tooling::getStripPluginsAdjuster());
  if (!PchPath.empty())
    Tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
        {"-include-pch", PchPath.str()},
        tooling::ArgumentInsertPosition::BEGIN));

  ClangTidyDiagnosticConsumer Collector(*Context, nullptr,
                                        /*RemoveIncompatibleErrors=*/true);
#if LLVM_VERSION_MAJOR >= 22
  auto DiagOptions = std::make_unique<DiagnosticOptions>();
  DiagnosticsEngine Engine(DiagnosticIds, *DiagOptions, &Collector,
                           /*ShouldOwnClient=*/false);
  Context->setDiagnosticsEngine(std::move(DiagOptions), &Engine);
#else
  DiagnosticsEngine Engine(DiagnosticIds, new DiagnosticOptions, &Collector,
                           /*ShouldOwnClient=*/false);
  Context->setDiagnosticsEngine(&Engine);
#endif
  Tool.setDiagnosticConsumer(&Collector);

  FileResult Result;
  LintActionFactory Factory(*Context, Result, Project != nullptr);
  useProjectFacts(Project);
  Tool.run(&Factory);
  useProjectFacts(nullptr);
  Result.Findings = Collector.take();
  // Code clang could not make sense of says nothing to other files.
  if (llvm::any_of(Result.Findings, isCompilerError))
    Result.Facts.Summaries.clear();
  sortAndDeduplicate(Result.Findings);
  llvm::sort(Result.Inputs);
  Result.Inputs.erase(std::unique(Result.Inputs.begin(), Result.Inputs.end()),
                      Result.Inputs.end());
  return Result;
}

void LintSession::printText(const std::vector<Finding> &Findings) {
  unsigned WarningsAsErrors = 0;
  handleErrors(Findings, *Context, FB_NoFix, WarningsAsErrors,
               llvm::vfs::getRealFileSystem());
}

} // namespace torchtidy
