//===--- ResultCache.cpp - Findings kept across runs ----------------------===//
//
// An entry, <dir>/<key>.entry, is written atomically (a temporary file then
// a rename), so concurrent runs never read half an entry:
//
//   torchtidy-cache 2
//   <number of inputs>
//   <size> <mtime ns> <content hash> <path>      (one line per input; a
//                                                 folder's content is the
//                                                 names of its entries)
//   <number of project facts>
//   P <mangled name> <summary JSON, or - for none> (one line per fact
//                                                 provided)
//   U <mangled name> <digest, or - for none>     (one line per fact used)
//   <the findings as clang-tidy's export-fixes YAML>
//
// The entry holds while its inputs are unchanged; whether the project facts
// it used still hold is for the run to decide (LintScheduler.cpp), once it
// knows every unit's facts.
//
//===----------------------------------------------------------------------===//

#include "ResultCache.h"

#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

using namespace clang;

namespace torchtidy {

static constexpr llvm::StringLiteral Magic = "torchtidy-cache 2";

static std::string hexHash(llvm::StringRef Bytes) {
  llvm::XXH128_hash_t Hash =
      llvm::xxh3_128bits(llvm::arrayRefFromStringRef(Bytes));
  return llvm::utohexstr(Hash.high64, /*LowerCase=*/true, 16) +
         llvm::utohexstr(Hash.low64, /*LowerCase=*/true, 16);
}

static std::optional<std::string> hashOfFile(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return std::nullopt;
  return hexHash((*Buffer)->getBuffer());
}

/// A file's content hash; a folder's is that of its entries' names, which
/// change when a file or folder appears in it.
static std::optional<std::string> contentHash(llvm::StringRef Path) {
  if (!llvm::sys::fs::is_directory(Path))
    return hashOfFile(Path);
  std::vector<std::string> Names;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Path, EC), End; It != End && !EC;
       It.increment(EC))
    Names.push_back(llvm::sys::path::filename(It->path()).str());
  if (EC)
    return std::nullopt;
  llvm::sort(Names);
  return hexHash("folder\n" + llvm::join(Names, "\n"));
}

static uint64_t nanoseconds(llvm::sys::TimePoint<> Time) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             Time.time_since_epoch())
      .count();
}

ResultCache::ResultCache(std::string Directory, std::string ToolIdentity)
    : Directory(std::move(Directory)), ToolIdentity(std::move(ToolIdentity)) {}

std::string
ResultCache::keyFor(llvm::ArrayRef<tooling::CompileCommand> Commands,
                    llvm::StringRef OptionsText) const {
  // Fields are NUL-separated so that no two different inputs run together.
  std::string Key = ToolIdentity + '\0' + OptionsText.str() + '\0';
  for (const tooling::CompileCommand &Command : Commands) {
    Key += Command.Directory + '\0' + Command.Filename + '\0';
    for (const std::string &Arg : Command.CommandLine)
      Key += Arg + '\0';
    Key += '\n';
  }
  return hexHash(Key);
}

std::string ResultCache::writeError() const {
  std::lock_guard<std::mutex> Lock(ErrorLock);
  return FirstWriteError;
}

static std::string entryPath(llvm::StringRef Directory, llvm::StringRef Key) {
  llvm::SmallString<256> Path(Directory);
  llvm::sys::path::append(Path, Key + ".entry");
  return std::string(Path);
}

/// One input line: unchanged when its stat data match, or else when its
/// content still hashes the same.
static bool inputUnchanged(llvm::StringRef Line) {
  llvm::SmallVector<llvm::StringRef, 4> Fields;
  Line.split(Fields, ' ', /*MaxSplit=*/3);
  uint64_t Size, Modified;
  if (Fields.size() != 4 || Fields[0].getAsInteger(10, Size) ||
      Fields[1].getAsInteger(10, Modified))
    return false;
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status(Fields[3], Status))
    return false;
  if (Status.getSize() == Size &&
      nanoseconds(Status.getLastModificationTime()) == Modified)
    return true;
  std::optional<std::string> Hash = contentHash(Fields[3]);
  return Hash && *Hash == Fields[2];
}

/// One project-fact line into Facts; false when it is not one.
static bool parseFact(llvm::StringRef Line, UnitFacts &Facts) {
  auto [Tag, Rest] = Line.split(' ');
  auto [Name, Value] = Rest.split(' ');
  if (Name.empty() || Value.empty())
    return false;
  if (Tag == "P")
    Facts.Summaries[Name.str()] = Value == "-" ? "" : Value.str();
  else if (Tag == "U")
    Facts.Used[Name.str()] = Value == "-" ? "" : Value.str();
  else
    return false;
  return true;
}

static std::optional<FileResult> parseEntry(llvm::StringRef Text) {
  auto [Header, Rest] = Text.split('\n');
  if (Header != Magic)
    return std::nullopt;
  auto [CountLine, Body] = Rest.split('\n');
  unsigned Count;
  if (CountLine.getAsInteger(10, Count))
    return std::nullopt;
  for (unsigned I = 0; I < Count; ++I) {
    auto [Line, Next] = Body.split('\n');
    if (!inputUnchanged(Line))
      return std::nullopt;
    Body = Next;
  }
  FileResult Result;
  auto [FactCountLine, FactsAndFindings] = Body.split('\n');
  unsigned FactCount;
  if (FactCountLine.getAsInteger(10, FactCount))
    return std::nullopt;
  Body = FactsAndFindings;
  for (unsigned I = 0; I < FactCount; ++I) {
    auto [Line, Next] = Body.split('\n');
    if (!parseFact(Line, Result.Facts))
      return std::nullopt;
    Body = Next;
  }
  tooling::TranslationUnitDiagnostics Saved;
  llvm::yaml::Input YamlIn(Body);
  YamlIn >> Saved;
  if (YamlIn.error())
    return std::nullopt;
  for (const tooling::Diagnostic &Diagnostic : Saved.Diagnostics) {
    Finding F(Diagnostic.DiagnosticName, Diagnostic.DiagLevel,
              Diagnostic.BuildDirectory, /*IsWarningAsError=*/false);
    static_cast<tooling::Diagnostic &>(F) = Diagnostic;
    Result.Findings.push_back(std::move(F));
  }
  return Result;
}

std::optional<FileResult> ResultCache::lookup(llvm::StringRef Key) {
  std::optional<FileResult> Result;
  if (auto Buffer = llvm::MemoryBuffer::getFile(entryPath(Directory, Key)))
    Result = parseEntry((*Buffer)->getBuffer());
  ++(Result ? Hits : Misses);
  return Result;
}

void ResultCache::store(llvm::StringRef Key, const FileResult &Result,
                        llvm::sys::TimePoint<> LintStart) {
  std::string Entry;
  llvm::raw_string_ostream Out(Entry);
  Out << Magic << "\n" << Result.Inputs.size() << "\n";
  for (const std::string &Input : Result.Inputs) {
    llvm::sys::fs::file_status Status;
    std::optional<std::string> Hash = contentHash(Input);
    if (Input.find('\n') != std::string::npos ||
        llvm::sys::fs::status(Input, Status) || !Hash ||
        Status.getLastModificationTime() >= LintStart)
      return; // unreadable, or edited while linting: not cacheable
    Out << Status.getSize() << " "
        << nanoseconds(Status.getLastModificationTime()) << " " << *Hash << " "
        << Input << "\n";
  }
  Out << Result.Facts.Summaries.size() + Result.Facts.Used.size() << "\n";
  for (const auto &[Name, Summary] : Result.Facts.Summaries)
    Out << "P " << Name << " " << (Summary.empty() ? "-" : Summary) << "\n";
  for (const auto &[Name, Digest] : Result.Facts.Used)
    Out << "U " << Name << " " << (Digest.empty() ? "-" : Digest) << "\n";
  tooling::TranslationUnitDiagnostics Saved;
  for (const Finding &F : Result.Findings)
    Saved.Diagnostics.push_back(F);
  llvm::yaml::Output YamlOut(Out);
  YamlOut << Saved;
  Out.flush();

  auto Fail = [&](const llvm::Twine &Why) {
    std::lock_guard<std::mutex> Lock(ErrorLock);
    if (FirstWriteError.empty())
      FirstWriteError = Why.str();
  };
  if (std::error_code EC = llvm::sys::fs::create_directories(Directory))
    return Fail("cannot create '" + Directory + "': " + EC.message());
  int FD;
  llvm::SmallString<256> Temporary;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(
          Directory + "/tmp-%%%%%%%%", FD, Temporary))
    return Fail("cannot write in '" + Directory + "': " + EC.message());
  {
    llvm::raw_fd_ostream File(FD, /*shouldClose=*/true);
    File << Entry;
    File.close();
    if (File.has_error()) {
      File.clear_error();
      llvm::sys::fs::remove(Temporary);
      return Fail("cannot write '" + Temporary + "'");
    }
  }
  if (std::error_code EC =
          llvm::sys::fs::rename(Temporary, entryPath(Directory, Key))) {
    llvm::sys::fs::remove(Temporary);
    Fail("cannot write in '" + Directory + "': " + EC.message());
  }
}

} // namespace torchtidy
