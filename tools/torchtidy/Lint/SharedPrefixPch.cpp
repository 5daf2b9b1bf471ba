//===--- SharedPrefixPch.cpp - One parse of LibTorch per project ----------===//
//
// On disk, per group key (a hash of the tool, working directory, flags and
// prefix), in the PCH directory:
//   <key>.hpp     the prefix: the group's leading #include <...> lines
//   <key>.pch     the PCH built from it
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
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <chrono>
#include <thread>

using namespace clang;

namespace torchtidy {

std::string sharedPrefixOf(llvm::StringRef Source) {
  Source.consume_front("\xef\xbb\xbf"); // a UTF-8 byte order mark
  // Every leading #include <...> so far, and those up to LibTorch's last.
  std::string Leading;
  std::string Prefix;
  while (true) {
    Source = Source.ltrim();
    if (Source.consume_front("//")) {
      Source = Source.drop_until([](char C) { return C == '\n'; });
      continue;
    }
    if (Source.consume_front("/*")) {
      size_t End = Source.find("*/");
      if (End == llvm::StringRef::npos)
        return Prefix;
      Source = Source.drop_front(End + 2);
      continue;
    }
    if (!Source.starts_with("#"))
      return Prefix;
    llvm::StringRef Line = Source.take_until([](char C) { return C == '\n'; });
    // A directive continued on the next line, or a comment that starts on it
    // and runs on, ends the prefix rather than be half understood.
    if (Line.contains('\\') || Line.contains("/*"))
      return Prefix;
    llvm::StringRef Directive = Line.drop_front().ltrim(" \t");
    if (!Directive.consume_front("include"))
      return Prefix;
    Directive = Directive.ltrim(" \t");
    if (!Directive.starts_with("<"))
      return Prefix;
    size_t Close = Directive.find('>');
    if (Close == llvm::StringRef::npos)
      return Prefix;
    llvm::StringRef Rest = Directive.drop_front(Close + 1).trim();
    if (!Rest.empty() && !Rest.starts_with("//"))
      return Prefix;
    Leading += "#include ";
    Leading += Directive.take_front(Close + 1);
    Leading += "\n";
    if (isLibTorchHeaderName(Directive.slice(1, Close)))
      Prefix = Leading;
    Source = Source.drop_front(Line.size());
  }
}

/// A C++ source by its name, as the driver decides without -x.
static bool isCxxSource(llvm::StringRef File) {
  llvm::StringRef Extension = llvm::sys::path::extension(File);
  return llvm::is_contained(
      {".cpp", ".cc", ".cxx", ".c++", ".cp", ".C", ".CPP"}, Extension);
}

std::optional<std::vector<std::string>>
shareableFlags(const tooling::CompileCommand &Command) {
  // What ClangTool does to every command before the lint parses it.
  std::vector<std::string> Args = Command.CommandLine;
  for (const tooling::ArgumentsAdjuster &Adjust :
       {tooling::getClangSyntaxOnlyAdjuster(),
        tooling::getClangStripOutputAdjuster(),
        tooling::getClangStripDependencyFileAdjuster()})
    Args = Adjust(Args, Command.Filename);
  if (Args.empty() || !isCxxSource(Command.Filename))
    return std::nullopt;
  std::vector<std::string> Flags;
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
    Flags.push_back(Args[I]);
  }
  if (FileMentions != 1)
    return std::nullopt;
  return Flags;
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
  PrefixPchAction(bool &SawUserHeader, std::vector<std::string> &Inputs)
      : SawUserHeader(SawUserHeader), Inputs(Inputs) {}

  bool BeginSourceFileAction(CompilerInstance &Compiler) override {
    Compiler.getPreprocessor().addPPCallbacks(
        std::make_unique<UserHeaderDetector>(Compiler.getSourceManager(),
                                             SawUserHeader));
    return GeneratePCHAction::BeginSourceFileAction(Compiler);
  }

  void EndSourceFileAction() override {
    CompilerInstance &Compiler = getCompilerInstance();
    const SourceManager &Sources = Compiler.getSourceManager();
    for (auto It = Sources.fileinfo_begin(); It != Sources.fileinfo_end();
         ++It) {
      llvm::SmallString<256> Absolute(It->first.getName());
      Compiler.getVirtualFileSystem().makeAbsolute(Absolute);
      // Not "..": through a symlinked directory it names another place.
      llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/false);
      Inputs.push_back(std::string(Absolute));
    }
    GeneratePCHAction::EndSourceFileAction();
  }

private:
  bool &SawUserHeader;
  std::vector<std::string> &Inputs;
};

class PrefixPchActionFactory : public tooling::FrontendActionFactory {
public:
  explicit PrefixPchActionFactory(std::string OutputFile)
      : OutputFile(std::move(OutputFile)) {}

  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<PrefixPchAction>(SawUserHeader, Inputs);
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
};

SharedPrefixPch::SharedPrefixPch(std::string Directory,
                                 std::string ToolIdentity)
    : Directory(std::move(Directory)), ToolIdentity(std::move(ToolIdentity)),
      RunStart(std::chrono::system_clock::now()) {}

SharedPrefixPch::~SharedPrefixPch() = default;

void SharedPrefixPch::add(llvm::StringRef File,
                          const tooling::CompileCommand &Command) {
  std::optional<std::vector<std::string>> Flags = shareableFlags(Command);
  auto Source = llvm::MemoryBuffer::getFile(File);
  std::string PrefixText = Source ? sharedPrefixOf((*Source)->getBuffer()) : "";
  if (!Flags || PrefixText.empty()) {
    ++NotShareable;
    return;
  }
  std::string KeyText = ToolIdentity + '\0' + Command.Directory + '\0' +
                        llvm::join(*Flags, std::string(1, '\0')) + '\0' +
                        PrefixText;
  std::string Key = hexHash(KeyText);
  auto [It, New] = GroupOfKey.try_emplace(Key, Groups.size());
  if (New) {
    auto G = std::make_unique<Group>();
    G->Key = Key;
    G->PrefixText = std::move(PrefixText);
    G->WorkingDirectory = Command.Directory;
    G->Flags = std::move(*Flags);
    Groups.push_back(std::move(G));
  }
  Groups[It->second]->Files.push_back(File.str());
  GroupOfFile[File.str()] = It->second;
}

std::string SharedPrefixPch::pathOf(const Group &G,
                                    llvm::StringRef Extension) const {
  llvm::SmallString<256> Path(Directory);
  llvm::sys::path::append(Path, G.Key + Extension.str());
  return std::string(Path);
}

std::vector<size_t> SharedPrefixPch::plan(unsigned Jobs) {
  std::vector<size_t> ToPrepare;
  for (size_t I = 0; I < Groups.size(); ++I) {
    Group &G = *Groups[I];
    G.MayBuild = G.Files.size() >= 2 && G.Files.size() > Jobs;
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
  std::optional<Outcome> Last = lastOutcome(G);
  if (Last == Outcome::Pch) {
    G.Current.PchPath = pathOf(G, ".pch");
    // The listing's time says when the PCH was last used (for pruning); the
    // PCH's own stays, since cached results hold it as an input.
    touch(pathOf(G, ".inputs"));
    G.Ready = true;
    ++Reused;
    return;
  }
  if (Last || !G.MayBuild) // not shareable, and nothing has changed since
    return;
  if (build(G)) {
    G.Ready = true;
    ++Built;
    pruneLeastRecentlyUsed();
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
    for (llvm::StringRef Extension : {".pch", ".hpp", ".inputs"})
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
  return G.Ready ? &G.Current : nullptr;
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
  std::vector<std::string> Inputs;
  for (llvm::StringRef Line : llvm::drop_begin(Lines)) {
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
  // Without its listing a PCH is never reused: a write that fails costs the
  // next run a build, not a wrong result.
  writeAtomically(pathOf(G, ".inputs"), Listing);
  if (Result != Outcome::Pch)
    return false;
  G.Current.PchPath = Pch;
  G.Current.Inputs = std::move(Inputs);
  return true;
}

} // namespace torchtidy
