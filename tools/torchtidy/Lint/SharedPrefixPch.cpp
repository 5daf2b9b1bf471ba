//===--- SharedPrefixPch.cpp - One parse of LibTorch per project ----------===//
//
// On disk, per group key (a hash of the tool, working directory, flags and
// prefix), in the PCH directory:
//   <key>.hpp     the prefix: the group's leading #include <...> lines
//   <key>.pch     the PCH built from it
//   <key>.identifiers  every name its build looked up, one per line
//   <key>.inputs  the outcome of the last build ("pch", "user-header" or
//                 "failed"), then one line per file it read:
//                 <size> <mtime ns> <path>
// A PCH is reused while every file it read has its size and mtime, as clang
// itself checks when it loads one; an outcome other than "pch" is not tried
// again until one of those files changes.
//
//===----------------------------------------------------------------------===//

#include "SharedPrefixPch.h"
#include "ParseSetup.h"

#include "Model/TorchApi.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Inclusions/StandardLibrary.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <tuple>

using namespace clang;

namespace torchtidy {

namespace {

/// Follows a unit's include tree from its first line to its first token
/// that is not a preprocessor directive, collecting the `#include <...>`
/// lines met on the way, in the order the preprocessor meets them. Allowed
/// on the way, besides those: an include of the project's own header (found
/// where the preprocessor looks before the system folders; entered and
/// followed), `#pragma once`, an include guard
/// (`#ifndef G` then `#define G`, and its `#endif`), `#undef` of a name
/// nothing has defined, a `#define` of a name nothing has defined (noted:
/// the headers after it parse as without it only if they never name it),
/// and, without Microsoft extensions, MSVC's `#pragma warning(...)`,
/// `region` and `endregion`, which clang then ignores. Anything else (a
/// macro defined again or undefined, a conditional, another pragma, a
/// directive continued on the next line) ends the walk: it may change how
/// what follows parses.
class PrefixWalk {
public:
  PrefixWalk(llvm::ArrayRef<std::string> QuoteDirs,
             llvm::ArrayRef<std::string> AngleDirs,
             llvm::ArrayRef<std::string> CommandLineMacros,
             bool MicrosoftExtensions)
      : QuoteDirs(QuoteDirs), AngleDirs(AngleDirs),
        CommandLineMacros(CommandLineMacros),
        MicrosoftExtensions(MicrosoftExtensions) {}

  /// The `#include <...>` lines up to and including LibTorch's last, and
  /// the macros defined before it.
  SharedPrefix prefixOf(llvm::StringRef Directory, llvm::StringRef Source) {
    walk(Directory, Source, /*Depth=*/0);
    return std::move(Prefix);
  }

private:
  enum class Next { Continue, Stop };

  Next walk(llvm::StringRef Directory, llvm::StringRef Source, unsigned Depth);
  /// Walks the project's header an include of Name names (Quoted: in
  /// quotes): found in the includer's folder or QuoteDirs (quoted only),
  /// or AngleDirs. None when it is not the project's.
  std::optional<Next> enterProjectHeader(llvm::StringRef Name, bool Quoted,
                                         llvm::StringRef Directory,
                                         unsigned Depth);

  /// Whether the command line or the walk defined a macro named Name.
  bool definedBefore(llvm::StringRef Name) const;
  /// Whether no macro named Name is defined here: not by the command line,
  /// the walk or the compiler (`#undef Name` then undefines nothing).
  bool nothingDefines(llvm::StringRef Name) const;

  llvm::ArrayRef<std::string> QuoteDirs; // -iquote: quoted includes only
  llvm::ArrayRef<std::string> AngleDirs; // -I: both kinds
  llvm::ArrayRef<std::string> CommandLineMacros;
  bool MicrosoftExtensions;
  llvm::StringSet<> Defined;             // guards and macros the walk met
  std::string Leading;                   // every #include <...> line met so far
  std::vector<std::string> DefinedSoFar; // macros other than guards
  SharedPrefix Prefix; // Leading and DefinedSoFar, at LibTorch's last
  llvm::StringSet<> Entered;
};

/// The text of a directive line after `#` and its keyword, or none when
/// Line is not that directive.
std::optional<llvm::StringRef> directiveArgument(llvm::StringRef Line,
                                                 llvm::StringRef Keyword) {
  llvm::StringRef Directive = Line.drop_front().ltrim(" \t");
  if (!Directive.consume_front(Keyword))
    return std::nullopt;
  if (!Directive.empty() && !llvm::isSpace(Directive.front()) &&
      Directive.front() != '<' && Directive.front() != '"')
    return std::nullopt; // #includes, #ifndefx
  return Directive.trim();
}

/// MSVC's pragmas that clang ignores without Microsoft extensions (it warns
/// of an unknown pragma, or does nothing for a region): they change neither
/// the parse nor anything a check sees.
bool ignoredWithoutMicrosoftExtensions(llvm::StringRef Pragma) {
  llvm::StringRef Name =
      Pragma.take_while([](char C) { return llvm::isAlnum(C) || C == '_'; });
  return llvm::is_contained({"warning", "region", "endregion"}, Name);
}

/// The name a `#define` defines, when its text is a plain one: a name then
/// nothing, a space or a parameter list.
std::optional<llvm::StringRef> definedName(llvm::StringRef Text) {
  llvm::StringRef Name =
      Text.take_while([](char C) { return llvm::isAlnum(C) || C == '_'; });
  llvm::StringRef Rest = Text.drop_front(Name.size());
  if (Name.empty() || llvm::isDigit(Name.front()) ||
      (!Rest.empty() && !llvm::isSpace(Rest.front()) && Rest.front() != '('))
    return std::nullopt;
  return Name;
}

/// An identifier alone (a guard's name), comments after it aside.
std::optional<llvm::StringRef> soleIdentifier(llvm::StringRef Text) {
  llvm::StringRef Name =
      Text.take_while([](char C) { return llvm::isAlnum(C) || C == '_'; });
  llvm::StringRef Rest = Text.drop_front(Name.size()).trim();
  if (Name.empty() || llvm::isDigit(Name.front()) ||
      (!Rest.empty() && !Rest.starts_with("//")))
    return std::nullopt;
  return Name;
}

PrefixWalk::Next PrefixWalk::walk(llvm::StringRef Directory,
                                  llvm::StringRef Source, unsigned Depth) {
  Source.consume_front("\xef\xbb\xbf"); // a UTF-8 byte order mark
  std::optional<std::string> GuardPending; // after #ifndef, before #define
  bool GuardOpen = false;
  while (true) {
    Source = Source.ltrim();
    if (Source.empty())
      return GuardPending || GuardOpen ? Next::Stop : Next::Continue;
    if (Source.consume_front("//")) {
      Source = Source.drop_until([](char C) { return C == '\n'; });
      continue;
    }
    if (Source.consume_front("/*")) {
      size_t End = Source.find("*/");
      if (End == llvm::StringRef::npos)
        return Next::Stop;
      Source = Source.drop_front(End + 2);
      continue;
    }
    if (!Source.starts_with("#"))
      return Next::Stop;
    llvm::StringRef Line = Source.take_until([](char C) { return C == '\n'; });
    Source = Source.drop_front(Line.size());
    // A directive continued on the next line, or a comment that starts on it
    // and runs on, ends the walk rather than be half understood.
    if (Line.contains('\\') || Line.contains("/*"))
      return Next::Stop;
    if (GuardPending) {
      std::optional<llvm::StringRef> GuardDefinition =
          directiveArgument(Line, "define");
      if (!GuardDefinition ||
          soleIdentifier(*GuardDefinition) != llvm::StringRef(*GuardPending))
        return Next::Stop;
      Defined.insert(*GuardPending);
      GuardPending.reset();
      GuardOpen = true;
      continue;
    }
    // Qt's `#undef slots` before LibTorch's headers, with nothing defined.
    if (std::optional<llvm::StringRef> Undefined =
            directiveArgument(Line, "undef")) {
      std::optional<llvm::StringRef> Name = soleIdentifier(*Undefined);
      if (!Name || !nothingDefines(*Name))
        return Next::Stop;
      continue;
    }
    // `#define _USE_MATH_DEFINES` before <cmath>, `#define NOMINMAX`: a
    // PCH built without the macro serves the unit when its build never met
    // the name (SharedPrefixPch::prefixFor). The compiler's own macros are
    // among the names every build meets.
    if (std::optional<llvm::StringRef> Definition =
            directiveArgument(Line, "define")) {
      std::optional<llvm::StringRef> Name = definedName(*Definition);
      if (!Name || definedBefore(*Name))
        return Next::Stop;
      Defined.insert(*Name);
      DefinedSoFar.push_back(Name->str());
      continue;
    }
    if (std::optional<llvm::StringRef> Pragma =
            directiveArgument(Line, "pragma")) {
      if (soleIdentifier(*Pragma) == llvm::StringRef("once") ||
          (!MicrosoftExtensions && ignoredWithoutMicrosoftExtensions(*Pragma)))
        continue;
      return Next::Stop;
    }
    if (std::optional<llvm::StringRef> Guard =
            directiveArgument(Line, "ifndef")) {
      std::optional<llvm::StringRef> Name = soleIdentifier(*Guard);
      if (Depth == 0 || GuardOpen || !Name)
        return Next::Stop;
      GuardPending = Name->str();
      continue;
    }
    if (std::optional<llvm::StringRef> End = directiveArgument(Line, "endif")) {
      if (!GuardOpen)
        return Next::Stop;
      GuardOpen = false;
      continue;
    }
    std::optional<llvm::StringRef> Included =
        directiveArgument(Line, "include");
    if (!Included || Included->empty())
      return Next::Stop;
    char Close = Included->front() == '<' ? '>' : '"';
    size_t CloseAt = Included->find(Close, 1);
    if (CloseAt == llvm::StringRef::npos)
      return Next::Stop;
    llvm::StringRef Name = Included->slice(1, CloseAt);
    llvm::StringRef Rest = Included->drop_front(CloseAt + 1).trim();
    if (Name.empty() || (!Rest.empty() && !Rest.starts_with("//")))
      return Next::Stop;
    // The project's own header, where the preprocessor looks before the
    // system folders; else a system header (a quoted include not found
    // there is looked for as <Name>).
    std::optional<Next> Walked =
        enterProjectHeader(Name, Close == '"', Directory, Depth);
    if (Walked == Next::Stop)
      return Next::Stop;
    if (Walked)
      continue;
    Leading += "#include <" + Name.str() + ">\n";
    if (isLibTorchHeaderName(Name))
      Prefix = {Leading, DefinedSoFar};
  }
}

bool PrefixWalk::definedBefore(llvm::StringRef Name) const {
  return Defined.contains(Name) || llvm::is_contained(CommandLineMacros, Name);
}

bool PrefixWalk::nothingDefines(llvm::StringRef Name) const {
  // The compiler predefines reserved names (__GNUC__, _LP64) and, in GNU
  // modes, a few plain ones.
  if (Name.starts_with("__") ||
      (Name.size() > 1 && Name[0] == '_' && llvm::isUpper(Name[1])) ||
      llvm::is_contained({"linux", "unix", "i386"}, Name))
    return false;
  return !definedBefore(Name);
}

std::optional<PrefixWalk::Next>
PrefixWalk::enterProjectHeader(llvm::StringRef Name, bool Quoted,
                               llvm::StringRef Directory, unsigned Depth) {
  // Deep enough for a project's own headers; a cycle ends here too.
  constexpr unsigned MaxDepth = 8;
  if (Depth >= MaxDepth || llvm::sys::path::is_absolute(Name))
    return Next::Stop;
  // As the preprocessor looks: for a quoted include the includer's folder
  // and the -iquote folders first; then the -I folders.
  std::vector<std::string> Folders;
  if (Quoted) {
    Folders.push_back(Directory.str());
    llvm::append_range(Folders, QuoteDirs);
  }
  llvm::append_range(Folders, AngleDirs);
  llvm::SmallString<256> Found;
  for (llvm::StringRef Folder : Folders) {
    llvm::SmallString<256> Candidate(Folder);
    llvm::sys::path::append(Candidate, Name);
    if (llvm::sys::fs::is_regular_file(Candidate)) {
      Found = Candidate;
      break;
    }
  }
  if (Found.empty())
    return std::nullopt;
  llvm::sys::path::remove_dots(Found, /*remove_dot_dot=*/true);
  // A header met twice is guarded (or the walk had stopped): a no-op.
  if (!Entered.insert(Found).second)
    return Next::Continue;
  auto Header = llvm::MemoryBuffer::getFile(Found);
  if (!Header)
    return Next::Stop;
  return walk(llvm::sys::path::parent_path(Found), (*Header)->getBuffer(),
              Depth + 1);
}

} // namespace

SharedPrefix sharedPrefixOf(llvm::StringRef File, llvm::StringRef Source,
                            llvm::ArrayRef<std::string> QuoteDirs,
                            llvm::ArrayRef<std::string> AngleDirs,
                            llvm::ArrayRef<std::string> CommandLineMacros,
                            bool MicrosoftExtensions) {
  return PrefixWalk(QuoteDirs, AngleDirs, CommandLineMacros,
                    MicrosoftExtensions)
      .prefixOf(llvm::sys::path::parent_path(File), Source);
}

/// A C++ source by its name, as the driver decides without -x.
static bool isCxxSource(llvm::StringRef File) {
  llvm::StringRef Extension = llvm::sys::path::extension(File);
  return llvm::is_contained(
      {".cpp", ".cc", ".cxx", ".c++", ".cp", ".C", ".CPP"}, Extension);
}

/// An include folder option, as the unit wrote it: Option alone or joined
/// to its folder.
struct IncludeFolderOption {
  llvm::StringRef Option;
  bool User; // the project's (-I, -iquote, -idirafter), not the system's
};

static std::optional<IncludeFolderOption>
includeFolderOption(llvm::StringRef Arg) {
  // Longest first: -isystem is not -i + "system".
  static constexpr IncludeFolderOption Options[] = {
      {"-isystem-after", false}, {"-cxx-isystem", false}, {"-idirafter", true},
      {"-isystem", false},       {"-iquote", true},       {"-isysroot", false},
      {"--sysroot=", false},     {"--sysroot", false},    {"-I", true}};
  for (const IncludeFolderOption &Candidate : Options)
    if (Arg.starts_with(Candidate.Option))
      return Candidate;
  return std::nullopt;
}

std::optional<ShareableCommand>
shareableCommand(const tooling::CompileCommand &Command) {
  // What ClangTool does to every command before the lint parses it.
  std::vector<std::string> Args = Command.CommandLine;
  for (const tooling::ArgumentsAdjuster &Adjust :
       {tooling::getClangSyntaxOnlyAdjuster(),
        tooling::getClangStripOutputAdjuster(),
        tooling::getClangStripDependencyFileAdjuster()})
    Args = Adjust(Args, Command.Filename);
  if (Args.empty() || !isCxxSource(Command.Filename))
    return std::nullopt;
  ShareableCommand Result;
  auto Absolute = [&](llvm::StringRef Folder) {
    // "=..." and "$SYSROOT..." are relative to the sysroot, not here.
    llvm::SmallString<256> Path;
    if (!llvm::sys::path::is_absolute(Folder) && !Folder.starts_with("=") &&
        !Folder.starts_with("$SYSROOT"))
      Path = Command.Directory;
    llvm::sys::path::append(Path, Folder);
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/false);
    return std::string(Path);
  };
  unsigned FileMentions = 0;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (Arg == Command.Filename) {
      ++FileMentions;
      continue;
    }
    // Anything included before the source's first line, or a source that is
    // not C++: the prefix alone would not be what the unit starts with.
    if (Arg.starts_with("-include") || Arg.starts_with("--include") ||
        Arg.starts_with("-imacros") || Arg.starts_with("--imacros") ||
        Arg == "-x" || Arg.starts_with("--language") ||
        (Arg == "-Xclang" && I + 1 < Args.size() &&
         llvm::StringRef(Args[I + 1]).starts_with("-include")))
      return std::nullopt;
    // The last of these options wins, as in the driver.
    if ((I == 0 &&
         llvm::is_contained({"cl", "clang-cl"}, llvm::sys::path::stem(Arg))) ||
        Arg == "-fms-extensions" || Arg == "-fms-compatibility" ||
        Arg == "--driver-mode=cl" ||
        (Arg.starts_with("--target=") && Arg.contains("msvc")) ||
        (Arg == "-target" && I + 1 < Args.size() &&
         llvm::StringRef(Args[I + 1]).contains("msvc")))
      Result.MicrosoftExtensions = true;
    else if (Arg == "-fno-ms-extensions" || Arg == "-fno-ms-compatibility")
      Result.MicrosoftExtensions = false;
    if (Arg.starts_with("-D") || Arg.starts_with("-U")) {
      llvm::StringRef Macro = Arg.drop_front(2);
      if (Macro.empty() && I + 1 < Args.size())
        Macro = Args[I + 1];
      Result.CommandLineMacros.push_back(
          Macro.take_until([](char C) { return C == '=' || C == '('; }).str());
    }
    std::optional<IncludeFolderOption> Include =
        I > 0 ? includeFolderOption(Arg) : std::nullopt;
    if (!Include) {
      Result.Flags.push_back(Args[I]);
      // A relative path the compiler resolves against the unit's folder.
      if (I > 0 && !Arg.starts_with("-") && (Arg.contains('/') || Arg == ".") &&
          !llvm::sys::path::is_absolute(Arg))
        Result.DependsOnDirectory = true;
      continue;
    }
    llvm::StringRef Folder = Arg.drop_front(Include->Option.size());
    if (Folder.empty()) {
      if (I + 1 == Args.size())
        return std::nullopt;
      Folder = Args[++I];
    }
    std::string Option = Include->Option.rtrim('=').str();
    if (Include->User)
      Result.UserIncludeFolders.push_back(
          {Result.Flags.size(), Option, Absolute(Folder)});
    Result.Flags.push_back(Option);
    Result.Flags.push_back(Absolute(Folder));
  }
  if (FileMentions != 1)
    return std::nullopt;
  return Result;
}

static std::string hexHash(llvm::StringRef Bytes) {
  llvm::XXH128_hash_t Hash =
      llvm::xxh3_128bits(llvm::arrayRefFromStringRef(Bytes));
  return llvm::utohexstr(Hash.high64, /*LowerCase=*/true, 16) +
         llvm::utohexstr(Hash.low64, /*LowerCase=*/true, 16);
}

namespace {

/// Where a prefix reaches a file outside the system include paths.
class UserHeaderDetector : public PPCallbacks {
public:
  UserHeaderDetector(const SourceManager &Sources, bool &SawUserHeader)
      : Sources(Sources), SawUserHeader(SawUserHeader) {}

  void FileChanged(SourceLocation Loc, FileChangeReason Reason,
                   SrcMgr::CharacteristicKind FileType,
                   FileID PreviousFile) override {
    if (Reason != EnterFile || FileType != SrcMgr::C_User)
      return;
    FileID Entered = Sources.getFileID(Sources.getExpansionLoc(Loc));
    // The prefix header itself and the predefines buffer are not headers.
    if (Entered == Sources.getMainFileID() ||
        !Sources.getFileEntryRefForID(Entered))
      return;
    SawUserHeader = true;
  }

private:
  const SourceManager &Sources;
  bool &SawUserHeader;
};

/// Clang's PCH generation, noting user headers and every file read.
class PrefixPchAction : public GeneratePCHAction {
public:
  PrefixPchAction(bool &SawUserHeader, std::vector<std::string> &Inputs,
                  std::vector<std::string> &SearchFolders,
                  std::vector<std::string> &Identifiers)
      : SawUserHeader(SawUserHeader), Inputs(Inputs),
        SearchFolders(SearchFolders), Identifiers(Identifiers) {}

  bool BeginSourceFileAction(CompilerInstance &Compiler) override {
    Compiler.getPreprocessor().addPPCallbacks(
        std::make_unique<UserHeaderDetector>(Compiler.getSourceManager(),
                                             SawUserHeader));
    return GeneratePCHAction::BeginSourceFileAction(Compiler);
  }

  void EndSourceFileAction() override {
    CompilerInstance &Compiler = getCompilerInstance();
    const SourceManager &Sources = Compiler.getSourceManager();
    auto AbsolutePath = [&](llvm::StringRef Name) {
      llvm::SmallString<256> Absolute(Name);
      Compiler.getVirtualFileSystem().makeAbsolute(Absolute);
      // Not "..": through a symlinked directory it names another place.
      llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/false);
      return std::string(Absolute);
    };
    for (auto It = Sources.fileinfo_begin(); It != Sources.fileinfo_end(); ++It)
      Inputs.push_back(AbsolutePath(It->first.getName()));
    HeaderSearch &Search = Compiler.getPreprocessor().getHeaderSearchInfo();
    for (auto It = Search.search_dir_begin(); It != Search.search_dir_end();
         ++It)
      if (OptionalDirectoryEntryRef Folder = It->getDirRef())
        SearchFolders.push_back(AbsolutePath(Folder->getName()));
    // Every name the preprocessor looked up (in code, in a directive, in a
    // macro's body; not in a skipped block), keywords and builtins too: a
    // macro of any other name, defined before the prefix, would have
    // changed nothing in it.
    for (const auto &Entry : Compiler.getPreprocessor().getIdentifierTable())
      Identifiers.push_back(Entry.getKey().str());
    GeneratePCHAction::EndSourceFileAction();
  }

private:
  bool &SawUserHeader;
  std::vector<std::string> &Inputs;
  std::vector<std::string> &SearchFolders;
  std::vector<std::string> &Identifiers;
};

class PrefixPchActionFactory : public tooling::FrontendActionFactory {
public:
  explicit PrefixPchActionFactory(std::string OutputFile)
      : OutputFile(std::move(OutputFile)) {}

  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<PrefixPchAction>(SawUserHeader, Inputs,
                                             SearchFolders, Identifiers);
  }

  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *Diagnostics) override {
    setUpPreprocessorAsTheLintDoes(*Invocation);
    Invocation->getFrontendOpts().ProgramAction = frontend::GeneratePCH;
    Invocation->getFrontendOpts().OutputFile = OutputFile;
    for (FrontendInputFile &Input : Invocation->getFrontendOpts().Inputs)
      Input = FrontendInputFile(Input.getFile(), Input.getKind().getHeader());
    // Instantiated once here rather than in every unit.
    Invocation->getLangOpts().PCHInstantiateTemplates = true;
    return FrontendActionFactory::runInvocation(Invocation, Files,
                                                PCHContainerOps, Diagnostics);
  }

  bool SawUserHeader = false;
  std::vector<std::string> Inputs;
  std::vector<std::string> SearchFolders;
  std::vector<std::string> Identifiers;

private:
  std::string OutputFile;
};

/// Counts errors (the base class does) and prints nothing: a prefix that
/// does not build is parsed with each unit, which reports its errors.
class SilentDiagnostics : public DiagnosticConsumer {};

/// The one compile command of the prefix header.
class PrefixDatabase : public tooling::CompilationDatabase {
public:
  explicit PrefixDatabase(tooling::CompileCommand Command)
      : Command(std::move(Command)) {}
  std::vector<tooling::CompileCommand>
  getCompileCommands(llvm::StringRef File) const override {
    if (File != Command.Filename)
      return {};
    return {Command};
  }

private:
  tooling::CompileCommand Command;
};

} // namespace

struct SharedPrefixPch::Group {
  std::string Key;
  std::string FlagsKey; // the key without the prefix (Unit::FlagsKey)
  std::string PrefixText;
  std::string WorkingDirectory;
  std::vector<std::string> Flags;
  std::vector<std::string> Files;
  bool MayBuild = false;
  bool Planned = false; // plan() chose it: its units wait for prepare()
  // prepare() writes Ready and Current, then sets Prepared under
  // PreparedLock; prefixFor() reads them once it has seen Prepared under
  // that lock, which orders the writes before the reads.
  bool Prepared = false;
  bool Ready = false; // a PCH in Current
  Prefix Current;
  /// The folders the build searched, in order: what the PCH's headers were
  /// found as (a name relative to one of them).
  std::vector<std::string> SearchFolders;
  /// The names the build met, read when a unit first asks (under
  /// IdentifiersLock); IdentifiersKnown: the PCH's list could be read.
  std::optional<llvm::StringSet<>> Identifiers;
  bool IdentifiersKnown = false;
};

SharedPrefixPch::SharedPrefixPch(std::string Directory,
                                 std::string ToolIdentity, bool KeptAcrossRuns)
    : Directory(std::move(Directory)), ToolIdentity(std::move(ToolIdentity)),
      KeptAcrossRuns(KeptAcrossRuns),
      RunStart(std::chrono::system_clock::now()) {}

SharedPrefixPch::~SharedPrefixPch() = default;

/// The header names of a prefix's lines.
static std::vector<llvm::StringRef> headerNamesOf(llvm::StringRef PrefixText) {
  std::vector<llvm::StringRef> Names;
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  PrefixText.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Line : Lines)
    Names.push_back(Line.drop_until([](char C) { return C == '<'; })
                        .drop_front()
                        .take_until([](char C) { return C == '>'; }));
  return Names;
}

/// The starts of a prefix that end at a LibTorch header, longest first,
/// without the prefix itself.
static std::vector<std::string> shorterCutsOf(llvm::StringRef PrefixText) {
  std::vector<std::string> Cuts;
  std::string Leading;
  for (llvm::StringRef Name : headerNamesOf(PrefixText)) {
    Leading += "#include <" + Name.str() + ">\n";
    if (isLibTorchHeaderName(Name) && Leading.size() < PrefixText.size())
      Cuts.push_back(Leading);
  }
  std::reverse(Cuts.begin(), Cuts.end());
  return Cuts;
}

void SharedPrefixPch::add(llvm::StringRef File,
                          const tooling::CompileCommand &Command) {
  std::optional<ShareableCommand> Shareable = shareableCommand(Command);
  auto Source = llvm::MemoryBuffer::getFile(File);
  if (!Shareable || !Source) {
    ++NotShareable;
    return;
  }
  std::vector<std::string> QuoteDirs, AngleDirs;
  for (const ShareableCommand::Folder &Folder : Shareable->UserIncludeFolders)
    if (Folder.Option == "-iquote")
      QuoteDirs.push_back(Folder.Path);
    else if (Folder.Option == "-I")
      AngleDirs.push_back(Folder.Path);
  SharedPrefix Prefix = sharedPrefixOf(File, (*Source)->getBuffer(), QuoteDirs,
                                       AngleDirs, Shareable->CommandLineMacros,
                                       Shareable->MicrosoftExtensions);
  const std::string &PrefixText = Prefix.Text;
  if (PrefixText.empty()) {
    ++NotShareable;
    return;
  }
  // The project's own include folders are not the group's, unless one holds
  // a header the prefix names (LibTorch given with -I): units of different
  // targets share. A folder that holds a header the prefix reaches deeper
  // down is found once the PCH lists what it read (prefixFor()).
  std::vector<llvm::StringRef> Names = headerNamesOf(PrefixText);
  std::vector<std::string> Flags;
  std::vector<std::string> Dropped; // those that may hide a system header
  auto Folder = Shareable->UserIncludeFolders.begin();
  for (size_t I = 0; I < Shareable->Flags.size(); ++I) {
    if (Folder != Shareable->UserIncludeFolders.end() &&
        Folder->Position == I) {
      bool HoldsPrefixHeader = llvm::any_of(Names, [&](llvm::StringRef Name) {
        llvm::SmallString<256> Candidate(Folder->Path);
        llvm::sys::path::append(Candidate, Name);
        return llvm::sys::fs::exists(Candidate);
      });
      if (!HoldsPrefixHeader) {
        // A folder searched after the system's cannot hide their headers.
        if (Folder->Option != "-idirafter")
          Dropped.push_back(Folder->Path);
        ++Folder;
        ++I; // and the folder after its option
        continue;
      }
      ++Folder;
    }
    Flags.push_back(Shareable->Flags[I]);
  }
  // Every start of the prefix that ends at a LibTorch header is a PCH the
  // unit could parse against: plan() picks the one most units share.
  Unit U;
  U.File = File.str();
  U.Directory = Command.Directory;
  U.FlagsKey =
      ToolIdentity + '\0' +
      (Shareable->DependsOnDirectory ? Command.Directory : std::string()) +
      '\0' + llvm::join(Flags, std::string(1, '\0'));
  U.Flags = std::move(Flags);
  auto AddCuts = [&](llvm::ArrayRef<llvm::StringRef> Lines) {
    std::string Leading;
    for (llvm::StringRef Name : Lines) {
      Leading += "#include <" + Name.str() + ">\n";
      if (isLibTorchHeaderName(Name))
        U.Cuts.push_back(Leading);
    }
  };
  AddCuts(Names);
  // Standard library headers "may be included in any order" ([using.headers]):
  // those before LibTorch's first may come after it, so the unit also parses
  // against the PCH of the prefix without them (`<chrono>`, `<memory>`,
  // `<torch/torch.h>` against `<torch/torch.h>`). Not the project's own
  // headers', nor a system library's, whose order is theirs.
  auto FirstLibTorch = llvm::find_if(Names, isLibTorchHeaderName);
  if (FirstLibTorch != Names.begin() &&
      std::all_of(Names.begin(), FirstLibTorch, [](llvm::StringRef Name) {
        return tooling::stdlib::Header::named("<" + Name.str() + ">")
            .has_value();
      }))
    AddCuts(llvm::ArrayRef(Names).drop_front(FirstLibTorch - Names.begin()));
  FoldersLeftOut[U.File] = std::move(Dropped);
  MacrosDefinedBefore[U.File] = std::move(Prefix.MacrosDefinedBefore);
  Units.push_back(std::move(U));
}

std::string SharedPrefixPch::pathOf(const Group &G,
                                    llvm::StringRef Extension) const {
  llvm::SmallString<256> Path(Directory);
  llvm::sys::path::append(Path, G.Key + Extension.str());
  return std::string(Path);
}

void SharedPrefixPch::group() {
  auto KeyOf = [](const Unit &U, const std::string &Cut) {
    return hexHash(U.FlagsKey + '\0' + Cut);
  };
  std::map<std::string, unsigned> UnitsWithCut;
  for (const Unit &U : Units)
    for (const std::string &Cut : U.Cuts)
      ++UnitsWithCut[KeyOf(U, Cut)];
  // A PCH kept from an earlier run first (linting one file of a project
  // finds the project's), then the start most units share, then the
  // longest: every start of a unit's prefix parses as the unit does.
  for (Unit &U : Units) {
    std::tuple<bool, unsigned, size_t> Best{false, 0, 0};
    const std::string *Chosen = nullptr;
    std::string ChosenKey;
    for (const std::string &Cut : U.Cuts) {
      std::string Key = KeyOf(U, Cut);
      llvm::SmallString<256> Listing(Directory);
      llvm::sys::path::append(Listing, Key + ".inputs");
      auto Kept = llvm::MemoryBuffer::getFile(Listing);
      bool KeptPch = Kept && (*Kept)->getBuffer().starts_with("pch\n");
      std::tuple<bool, unsigned, size_t> Score{KeptPch, UnitsWithCut[Key],
                                               Cut.size()};
      if (!Chosen || Score > Best) {
        Best = Score;
        Chosen = &Cut;
        ChosenKey = std::move(Key);
      }
    }
    auto [It, New] = GroupOfKey.try_emplace(ChosenKey, Groups.size());
    if (New) {
      auto G = std::make_unique<Group>();
      G->Key = ChosenKey;
      G->FlagsKey = U.FlagsKey;
      G->PrefixText = *Chosen;
      G->WorkingDirectory = U.Directory;
      G->Flags = U.Flags;
      Groups.push_back(std::move(G));
    }
    Groups[It->second]->Files.push_back(U.File);
    GroupOfFile[U.File] = It->second;
  }
  Units.clear();
}

std::vector<size_t> SharedPrefixPch::plan(unsigned Jobs) {
  group();
  std::vector<size_t> ToPrepare;
  for (size_t I = 0; I < Groups.size(); ++I) {
    Group &G = *Groups[I];
    // For this run alone, a PCH pays when the group's units outnumber the
    // workers (fewer parse side by side in the time of one build); kept, it
    // pays from the next lint of any of them.
    G.MayBuild =
        G.Files.size() >= 2 && (KeptAcrossRuns || G.Files.size() > Jobs);
    G.Planned = G.MayBuild || llvm::sys::fs::exists(pathOf(G, ".inputs"));
    if (G.Planned)
      ToPrepare.push_back(I);
  }
  return ToPrepare;
}

/// Sets a file's modification time to now.
static void touch(const std::string &Path) {
  int FD;
  if (llvm::sys::fs::openFileForWrite(Path, FD, llvm::sys::fs::CD_OpenExisting,
                                      llvm::sys::fs::OF_Append))
    return;
  llvm::sys::fs::setLastAccessAndModificationTime(
      FD, std::chrono::time_point_cast<std::chrono::nanoseconds>(
              std::chrono::system_clock::now()));
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);
}

void SharedPrefixPch::prepare(size_t Index) {
  Group &G = *Groups[Index];
  auto WakeWaitingUnits = llvm::make_scope_exit([&] {
    {
      std::lock_guard<std::mutex> Lock(PreparedLock);
      G.Prepared = true;
    }
    PreparedChanged.notify_all();
  });
  // A prefix whose PCH does not build (one of its headers does not compile
  // here: LibTorch's CUDA headers without CUDA's) may start with one that
  // does: every unit of the group starts with each shorter cut too.
  std::vector<std::string> ShorterCuts = shorterCutsOf(G.PrefixText);
  for (size_t Shorter = 0;; ++Shorter) {
    std::optional<Outcome> Last = lastOutcome(G);
    if (Last == Outcome::Pch) {
      G.Current.PchPath = pathOf(G, ".pch");
      // The listing's time says when the PCH was last used (for pruning);
      // the PCH's own stays, since cached results hold it as an input.
      touch(pathOf(G, ".inputs"));
      G.Ready = true;
      ++Reused;
      return;
    }
    if (!Last && G.MayBuild) {
      if (build(G)) {
        G.Ready = true;
        ++Built;
        pruneLeastRecentlyUsed();
        return;
      }
      Last = lastOutcome(G);
    }
    // Otherwise not shareable, and nothing has changed since. Only a build
    // that failed is tried shorter; one that reached the project's own
    // headers stays whole (the listing does not say where it reached them).
    if (Last != Outcome::Failed || Shorter == ShorterCuts.size())
      return;
    G.PrefixText = ShorterCuts[Shorter];
    G.Key = hexHash(G.FlagsKey + '\0' + G.PrefixText);
  }
}

void SharedPrefixPch::pruneLeastRecentlyUsed() {
  // A PCH of LibTorch is 100-700 MB, and every new torchtidy binary or
  // change of flags makes new ones: keep the most recently used few.
  constexpr size_t Kept = 4;
  std::vector<std::pair<llvm::sys::TimePoint<>, std::string>> Listings;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Directory, EC), End;
       It != End && !EC; It.increment(EC)) {
    llvm::StringRef Path = It->path();
    llvm::sys::fs::file_status Status;
    if (Path.ends_with(".inputs") && !llvm::sys::fs::status(Path, Status))
      Listings.emplace_back(Status.getLastModificationTime(), Path.str());
  }
  if (Listings.size() <= Kept)
    return;
  llvm::sort(Listings,
             [](const auto &A, const auto &B) { return A.first > B.first; });
  for (const auto &[Time, Listing] : llvm::drop_begin(Listings, Kept)) {
    if (Time >= RunStart) // built or used by this run: may be in use
      continue;
    llvm::StringRef Stem =
        llvm::StringRef(Listing).drop_back(llvm::StringRef(".inputs").size());
    for (llvm::StringRef Extension :
         {".pch", ".hpp", ".inputs", ".identifiers"})
      llvm::sys::fs::remove(Stem.str() + Extension.str());
  }
}

const SharedPrefixPch::Prefix *
SharedPrefixPch::prefixFor(llvm::StringRef File) {
  auto It = GroupOfFile.find(File);
  if (It == GroupOfFile.end())
    return nullptr;
  Group &G = *Groups[It->second];
  if (!G.Planned)
    return nullptr;
  {
    std::unique_lock<std::mutex> Lock(PreparedLock);
    PreparedChanged.wait(Lock, [&] { return G.Prepared; });
  }
  if (!G.Ready)
    return nullptr;
  // The PCH was built without the unit's own include folders: one that
  // holds a header of the same name as one the PCH read may hide it from
  // this unit, which then parses whole.
  auto LeftOut = FoldersLeftOut.find(File);
  if (LeftOut != FoldersLeftOut.end() &&
      llvm::any_of(LeftOut->second, [&](const std::string &Folder) {
        return mayHidePrefixHeader(It->second, Folder);
      }))
    return nullptr;
  // A macro the unit defines before its prefix changes nothing in a PCH
  // whose build never met its name: the headers' tokens are the same with
  // it or without it.
  auto Macros = MacrosDefinedBefore.find(File);
  if (Macros != MacrosDefinedBefore.end() &&
      llvm::any_of(Macros->second, [&](const std::string &Name) {
        return buildMetName(It->second, Name);
      }))
    return nullptr;
  return &G.Current;
}

bool SharedPrefixPch::buildMetName(size_t Index, llvm::StringRef Name) {
  std::lock_guard<std::mutex> Lock(IdentifiersLock);
  Group &G = *Groups[Index];
  if (!G.Identifiers) {
    G.Identifiers.emplace();
    auto Text = llvm::MemoryBuffer::getFile(pathOf(G, ".identifiers"));
    if (!Text)
      return true; // not known: met, to be safe
    llvm::SmallVector<llvm::StringRef, 0> Names;
    (*Text)->getBuffer().split(Names, '\n', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef Known : Names)
      G.Identifiers->insert(Known);
    G.IdentifiersKnown = true;
  }
  return !G.IdentifiersKnown || G.Identifiers->contains(Name);
}

bool SharedPrefixPch::wouldWait(llvm::StringRef File) {
  auto It = GroupOfFile.find(File);
  if (It == GroupOfFile.end() || !Groups[It->second]->Planned)
    return false;
  std::lock_guard<std::mutex> Lock(PreparedLock);
  return !Groups[It->second]->Prepared;
}

bool SharedPrefixPch::mayHidePrefixHeader(size_t Index,
                                          const std::string &Folder) {
  std::lock_guard<std::mutex> Lock(HidingLock);
  auto [Known, New] = Hiding.try_emplace({Index, Folder}, true);
  if (!New)
    return Known->second;
  const Group &G = *Groups[Index];
  // Without the build's search folders (a listing written before they were
  // kept) nothing can be told: hidden, to be safe.
  if (G.SearchFolders.empty())
    return true;
  for (const std::string &Input : G.Current.Inputs)
    for (const std::string &Searched : G.SearchFolders) {
      llvm::StringRef Relative(Input);
      if (!Relative.consume_front(Searched) || !Relative.consume_front("/"))
        continue;
      llvm::SmallString<256> Candidate(Folder);
      llvm::sys::path::append(Candidate, Relative);
      if (llvm::sys::fs::exists(Candidate))
        return true;
    }
  Known->second = false;
  return false;
}

static llvm::StringRef outcomeName(SharedPrefixPch::Outcome O) {
  switch (O) {
  case SharedPrefixPch::Outcome::Pch:
    return "pch";
  case SharedPrefixPch::Outcome::UserHeader:
    return "user-header";
  case SharedPrefixPch::Outcome::Failed:
    return "failed";
  }
  llvm_unreachable("all outcomes handled");
}

std::optional<SharedPrefixPch::Outcome>
SharedPrefixPch::lastOutcome(Group &G) const {
  auto Listing = llvm::MemoryBuffer::getFile(pathOf(G, ".inputs"));
  if (!Listing)
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  (*Listing)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  if (Lines.empty())
    return std::nullopt;
  std::optional<Outcome> Recorded;
  for (Outcome O : {Outcome::Pch, Outcome::UserHeader, Outcome::Failed})
    if (Lines.front() == outcomeName(O))
      Recorded = O;
  if (!Recorded)
    return std::nullopt;
  std::vector<std::string> Inputs, SearchFolders;
  for (llvm::StringRef Line : llvm::drop_begin(Lines)) {
    if (Line.consume_front("search ")) {
      SearchFolders.push_back(Line.str());
      continue;
    }
    auto [Size, Rest] = Line.split(' ');
    auto [Mtime, Path] = Rest.split(' ');
    llvm::sys::fs::file_status Status;
    uint64_t ExpectedSize = 0, ExpectedMtime = 0;
    if (Size.getAsInteger(10, ExpectedSize) ||
        Mtime.getAsInteger(10, ExpectedMtime) ||
        llvm::sys::fs::status(Path, Status) ||
        Status.getSize() != ExpectedSize ||
        uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                     Status.getLastModificationTime().time_since_epoch())
                     .count()) != ExpectedMtime)
      return std::nullopt; // changed: build again
    Inputs.push_back(Path.str());
  }
  if (*Recorded == Outcome::Pch) {
    if (!llvm::sys::fs::exists(pathOf(G, ".pch")))
      return std::nullopt;
    G.Current.Inputs = std::move(Inputs);
    G.SearchFolders = std::move(SearchFolders);
  }
  return Recorded;
}

/// A name next to Path that no other process or thread writes to.
static std::string temporaryPathFor(const std::string &Path) {
  return Path + ".tmp." + std::to_string(llvm::sys::Process::getProcessId()) +
         "." +
         std::to_string(
             std::hash<std::thread::id>()(std::this_thread::get_id()));
}

/// Writes Text to Path through a temporary file and a rename, so that a
/// concurrent run reads the old file or the new one, never half of one.
static bool writeAtomically(const std::string &Path, llvm::StringRef Text) {
  std::string Temporary = temporaryPathFor(Path);
  {
    std::error_code EC;
    llvm::raw_fd_ostream Out(Temporary, EC, llvm::sys::fs::OF_None);
    if (EC)
      return false;
    Out << Text;
    Out.close();
    if (Out.has_error()) {
      Out.clear_error();
      llvm::sys::fs::remove(Temporary);
      return false;
    }
  }
  if (llvm::sys::fs::rename(Temporary, Path)) {
    llvm::sys::fs::remove(Temporary);
    return false;
  }
  return true;
}

bool SharedPrefixPch::build(Group &G) {
  if (llvm::sys::fs::create_directories(Directory))
    return false;
  std::string Header = pathOf(G, ".hpp");
  std::string Pch = pathOf(G, ".pch");
  if (!writeAtomically(Header, G.PrefixText))
    return false;
  // Renamed into place once whole: a concurrent run never loads half a PCH.
  std::string Temporary = temporaryPathFor(Pch);

  tooling::CompileCommand Command;
  Command.Directory = G.WorkingDirectory;
  Command.Filename = Header;
  Command.CommandLine = G.Flags;
  Command.CommandLine.push_back(Header);
  PrefixDatabase Database(Command);
  tooling::ClangTool Tool(Database, {Header},
                          std::make_shared<PCHContainerOperations>(),
                          fileSystemForOneTool());
  Tool.setPrintErrorMessage(false);
  SilentDiagnostics Diagnostics;
  Tool.setDiagnosticConsumer(&Diagnostics);
  PrefixPchActionFactory Factory(Temporary);
  auto BuildStart = std::chrono::system_clock::now();
  bool Parsed = Tool.run(&Factory) == 0 && Diagnostics.getNumErrors() == 0 &&
                llvm::sys::fs::exists(Temporary);

  Outcome Result = !Parsed                 ? Outcome::Failed
                   : Factory.SawUserHeader ? Outcome::UserHeader
                                           : Outcome::Pch;
  if (Result == Outcome::Pch && llvm::sys::fs::rename(Temporary, Pch))
    Result = Outcome::Failed;
  llvm::sys::fs::remove(Temporary);

  std::string Listing = outcomeName(Result).str() + "\n";
  for (const std::string &Folder : Factory.SearchFolders)
    Listing += "search " + Folder + "\n";
  llvm::sort(Factory.Inputs);
  Factory.Inputs.erase(
      std::unique(Factory.Inputs.begin(), Factory.Inputs.end()),
      Factory.Inputs.end());
  std::vector<std::string> Inputs;
  bool EditedWhileBuilt = false;
  for (const std::string &Input : Factory.Inputs) {
    llvm::sys::fs::file_status Status;
    if (llvm::sys::fs::status(Input, Status))
      continue;
    EditedWhileBuilt |= Status.getLastModificationTime() >= BuildStart;
    Listing +=
        std::to_string(Status.getSize()) + " " +
        std::to_string(std::chrono::duration_cast<std::chrono::nanoseconds>(
                           Status.getLastModificationTime().time_since_epoch())
                           .count()) +
        " " + Input + "\n";
    Inputs.push_back(Input);
  }
  // A header edited while the PCH was built may be in it in either version,
  // while the listing and the units' cached results would name the new one:
  // neither this run nor the next uses that PCH.
  if (EditedWhileBuilt) {
    llvm::sys::fs::remove(pathOf(G, ".inputs"));
    return false;
  }
  // Before the listing, which makes the PCH current. Without it a unit that
  // defines a macro before its prefix parses whole.
  if (Result == Outcome::Pch) {
    llvm::sort(Factory.Identifiers);
    writeAtomically(pathOf(G, ".identifiers"),
                    llvm::join(Factory.Identifiers, "\n") + "\n");
  }
  // Without its listing a PCH is never reused: a write that fails costs the
  // next run a build, not a wrong result.
  writeAtomically(pathOf(G, ".inputs"), Listing);
  if (Result != Outcome::Pch)
    return false;
  G.Current.PchPath = Pch;
  G.Current.Inputs = std::move(Inputs);
  G.SearchFolders = std::move(Factory.SearchFolders);
  return true;
}

} // namespace torchtidy
