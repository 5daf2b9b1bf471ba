//===--- ProjectFacts.cpp - Facts from a project's other files ------------===//

#include "Analysis/ProjectFacts.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Mangle.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/xxhash.h"

#include <memory>

using namespace clang;

namespace torchtidy {

void ProjectFacts::provide(
    llvm::StringRef File, const std::map<std::string, std::string> &Summaries) {
  std::lock_guard<std::mutex> Guard(Lock);
  std::vector<std::string> &Names = NamesOf[File.str()];
  for (const std::string &Name : Names)
    Providers[Name].erase(File.str());
  Names.clear();
  for (const auto &[Name, Summary] : Summaries) {
    Providers[Name][File.str()] = Summary;
    Names.push_back(Name);
  }
}

std::optional<std::string>
ProjectFacts::summaryOf(llvm::StringRef Name,
                        llvm::StringRef ExceptFile) const {
  std::lock_guard<std::mutex> Guard(Lock);
  auto It = Providers.find(Name);
  if (It == Providers.end())
    return std::nullopt;
  const std::string *Found = nullptr;
  for (const auto &[File, Summary] : It->second) {
    if (File == ExceptFile)
      continue;
    if (Found && *Found != Summary)
      return std::nullopt;
    Found = &Summary;
  }
  return Found ? std::optional<std::string>(*Found) : std::nullopt;
}

std::optional<std::vector<std::string>>
ProjectFacts::callsOf(llvm::StringRef Name) const {
  std::lock_guard<std::mutex> Guard(Lock);
  if (!WholeProgram)
    return std::nullopt;
  if (auto Incomplete = Providers.find(IncompleteUnitFact);
      Incomplete != Providers.end() && !Incomplete->second.empty())
    return std::nullopt;
  std::vector<std::string> Facts;
  if (auto It = Providers.find(Name); It != Providers.end())
    for (const auto &Entry : It->second) // Sorted by unit.
      Facts.push_back(Entry.second);
  return Facts;
}

void ProjectFacts::setWholeProgram(bool Whole) {
  std::lock_guard<std::mutex> Guard(Lock);
  WholeProgram = Whole;
}

bool ProjectFacts::changedSince(const UnitFacts &Unit) const {
  for (const auto &[Name, Digest] : Unit.Used) {
    std::string Now = llvm::StringRef(Name).starts_with(CallsFactPrefix)
                          ? factDigest(callsOf(Name))
                          : factDigest(summaryOf(Name));
    if (Now != Digest)
      return true;
  }
  return false;
}

std::vector<std::string> ProjectFacts::providersOf(llvm::StringRef Name) const {
  std::lock_guard<std::mutex> Guard(Lock);
  std::vector<std::string> Units;
  auto It = Providers.find(Name);
  if (It != Providers.end())
    for (const auto &Entry : It->second)
      Units.push_back(Entry.first);
  return Units;
}

size_t ProjectFacts::factCount() const {
  std::lock_guard<std::mutex> Guard(Lock);
  return llvm::count_if(
      Providers, [](const auto &Entry) { return !Entry.second.empty(); });
}

size_t ProjectFacts::unitCount() const {
  std::lock_guard<std::mutex> Guard(Lock);
  return NamesOf.size();
}

// The index's format. A summary stays the text its unit wrote (its digest
// is what users of it recorded), so it is a JSON string, not an object.
static constexpr llvm::StringLiteral IndexFormat = "torchtidy-project-facts";
static constexpr int64_t IndexVersion = 1;

void ProjectFacts::writeIndex(llvm::raw_ostream &Out) const {
  std::lock_guard<std::mutex> Guard(Lock);
  llvm::json::OStream Json(Out, /*IndentSize=*/1);
  Json.object([&] {
    Json.attribute(IndexFormat, IndexVersion);
    Json.attribute("whole-program", WholeProgram);
    Json.attributeArray("units", [&] {
      for (const auto &Unit : NamesOf) {
        const std::string &File = Unit.first;
        Json.object([&] {
          Json.attribute("file", File);
          Json.attributeObject("summaries", [&] {
            std::vector<std::string> Sorted = Unit.second;
            llvm::sort(Sorted);
            for (const std::string &Name : Sorted)
              Json.attribute(Name, Providers.find(Name)->second.at(File));
          });
        });
      }
    });
  });
  Out << "\n";
}

llvm::Error ProjectFacts::readIndex(llvm::StringRef Path) {
  auto Fail = [&](const llvm::Twine &Why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "'" + Path + "' " + Why);
  };
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return Fail("cannot be read: " + Buffer.getError().message());
  llvm::Expected<llvm::json::Value> Parsed =
      llvm::json::parse((*Buffer)->getBuffer());
  if (!Parsed)
    return Fail("is not JSON: " + llvm::toString(Parsed.takeError()));
  const llvm::json::Object *Root = Parsed->getAsObject();
  std::optional<int64_t> Version =
      Root ? Root->getInteger(IndexFormat) : std::nullopt;
  if (!Version)
    return Fail("is not an index of project facts (torchtidy --index "
                "writes one)");
  if (*Version != IndexVersion)
    return Fail("is an index of version " + llvm::Twine(*Version) +
                "; this torchtidy reads version " + llvm::Twine(IndexVersion) +
                " (run torchtidy --index again)");
  // An index of every unit gives the calls of the project's functions.
  setWholeProgram(Root->getBoolean("whole-program").value_or(false));
  const llvm::json::Array *Units = Root->getArray("units");
  if (!Units)
    return Fail("has no \"units\"");
  for (const llvm::json::Value &Unit : *Units) {
    const llvm::json::Object *Fields = Unit.getAsObject();
    std::optional<llvm::StringRef> File =
        Fields ? Fields->getString("file") : std::nullopt;
    const llvm::json::Object *Summaries =
        Fields ? Fields->getObject("summaries") : nullptr;
    if (!File || !Summaries)
      return Fail("has a unit without \"file\" or \"summaries\"");
    std::map<std::string, std::string> Provided;
    for (const auto &[Name, Summary] : *Summaries) {
      std::optional<llvm::StringRef> Text = Summary.getAsString();
      if (!Text)
        return Fail("has a summary of '" + Name.str() +
                    "' that is not a string");
      Provided[Name.str()] = Text->str();
    }
    provide(*File, Provided);
  }
  return llvm::Error::success();
}

std::string projectUnitName(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Path, Real))
    return Path.str();
  return std::string(Real);
}

const ProjectFacts *projectFactsIndex(llvm::StringRef Path,
                                      std::string &Error) {
  struct Loaded {
    std::unique_ptr<ProjectFacts> Facts;
    std::string Error;
  };
  static std::mutex Lock;
  static std::map<std::string, Loaded> Indexes;
  std::lock_guard<std::mutex> Guard(Lock);
  auto [It, New] = Indexes.try_emplace(Path.str());
  Loaded &Index = It->second;
  if (New) {
    Index.Facts = std::make_unique<ProjectFacts>();
    if (llvm::Error E = Index.Facts->readIndex(Path)) {
      Index.Error = llvm::toString(std::move(E));
      Index.Facts.reset();
    }
  }
  Error = Index.Error;
  return Index.Facts.get();
}

std::string factDigest(const std::optional<std::string> &Summary) {
  if (!Summary)
    return "";
  return llvm::utohexstr(llvm::xxh3_64bits(*Summary), /*LowerCase=*/true, 16);
}

std::string factDigest(const std::optional<std::vector<std::string>> &Calls) {
  // A fact is one line of JSON.
  return factDigest(Calls ? std::optional<std::string>(llvm::join(*Calls, "\n"))
                          : std::nullopt);
}

std::optional<std::string> projectName(const FunctionDecl *F) {
  if (!F || !F->isExternallyVisible() || F->isInlined() ||
      F->isDependentContext() ||
      F->getTemplatedKind() != FunctionDecl::TK_NonTemplate || F->isMain() ||
      isa<CXXDestructorDecl>(F) || isa<CXXDeductionGuideDecl>(F) ||
      F->isInvalidDecl())
    return std::nullopt;
  ASTContext &Ctx = F->getASTContext();
  std::unique_ptr<MangleContext> Mangler(Ctx.createMangleContext());
  if (!Mangler->shouldMangleDeclName(F))
    return F->getIdentifier() ? std::optional<std::string>(F->getName().str())
                              : std::nullopt;
  std::string Name;
  llvm::raw_string_ostream Out(Name);
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(F))
    Mangler->mangleName(GlobalDecl(Ctor, Ctor_Complete), Out);
  else
    Mangler->mangleName(GlobalDecl(F), Out);
  return Name;
}

std::optional<std::string> moduleFactName(const CXXRecordDecl *Class) {
  if (!Class || !Class->isExternallyVisible() || Class->isDependentContext() ||
      Class->isInvalidDecl() || !Class->hasDefinition())
    return std::nullopt;
  ASTContext &Ctx = Class->getASTContext();
  std::unique_ptr<MangleContext> Mangler(Ctx.createMangleContext());
  std::string Name = "module:"; // No space: cache entries split on it.
  llvm::raw_string_ostream Out(Name);
  // As a TypeDecl: LLVM 22 deletes the TagDecl overload.
  Mangler->mangleCXXRTTIName(
      Ctx.getTypeDeclType(static_cast<const TypeDecl *>(Class)), Out);
  return Name;
}

} // namespace torchtidy
