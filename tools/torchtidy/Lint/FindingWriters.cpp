//===--- FindingWriters.cpp - JSON and SARIF output -----------------------===//

#include "FindingWriters.h"
#include "Frontend/CheckTable.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace clang::tidy;
namespace json = llvm::json;

namespace torchtidy {
namespace {

struct CheckDocumentation {
  const char *Name;
  const char *Markdown;
};
// Generated from docs/checks/*.md at build time: {"<check>", R"(<page>)"}.
const CheckDocumentation Documentation[] = {
#include "CheckDocs.inc"
};

const CheckInfo *findCheck(llvm::StringRef Name) {
  for (const CheckInfo &Check : AllChecks)
    if (Name == Check.Name)
      return &Check;
  return nullptr;
}

/// Line and column (1-based) of byte offsets, reading each file once.
class LineTable {
public:
  std::pair<unsigned, unsigned> position(llvm::StringRef File,
                                         unsigned Offset) {
    auto It = Files.find(File);
    if (It == Files.end()) {
      std::string Text;
      if (auto Buffer = llvm::MemoryBuffer::getFile(File))
        Text = (*Buffer)->getBuffer().str();
      It = Files.insert({File, std::move(Text)}).first;
    }
    llvm::StringRef Text = It->second;
    Offset = std::min<unsigned>(Offset, Text.size());
    llvm::StringRef Before = Text.take_front(Offset);
    unsigned Line = Before.count('\n') + 1;
    size_t LastNewline = Before.rfind('\n');
    unsigned Column = LastNewline == llvm::StringRef::npos
                          ? Offset + 1
                          : Offset - LastNewline;
    return {Line, Column};
  }

private:
  llvm::StringMap<std::string> Files;
};

json::Object location(LineTable &Lines, const Finding &F,
                      const clang::tooling::DiagnosticMessage &M) {
  std::string File = absolutePath(F, M.FilePath);
  auto [Line, Column] = Lines.position(File, M.FileOffset);
  return json::Object{{"file", File}, {"line", Line}, {"column", Column}};
}

std::string levelOf(const Finding &F) {
  if (isCompilerError(F))
    return "error";
  const CheckInfo *Check = findCheck(F.DiagnosticName);
  return Check ? Check->Level : "unknown";
}

} // namespace

const char *documentationOf(llvm::StringRef Check) {
  for (const CheckDocumentation &Doc : Documentation)
    if (Check == Doc.Name)
      return Doc.Markdown;
  return "";
}

void writeJson(const std::vector<Finding> &Findings, llvm::raw_ostream &OS) {
  LineTable Lines;
  json::Array Items;
  for (const Finding &F : Findings) {
    json::Object Item = location(Lines, F, F.Message);
    Item["check"] = F.DiagnosticName;
    Item["level"] = levelOf(F);
    Item["message"] = F.Message.Message;
    json::Array Notes;
    for (const auto &Note : F.Notes) {
      json::Object N = location(Lines, F, Note);
      N["message"] = Note.Message;
      Notes.push_back(std::move(N));
    }
    Item["notes"] = std::move(Notes);
    json::Array Fixes;
    for (const auto &[File, Replacements] : F.Message.Fix)
      for (const auto &R : Replacements) {
        std::string Path = absolutePath(F, R.getFilePath());
        auto [Line, Column] = Lines.position(Path, R.getOffset());
        Fixes.push_back(
            json::Object{{"file", Path},
                         {"offset", R.getOffset()},
                         {"length", R.getLength()},
                         {"line", Line},
                         {"column", Column},
                         {"replacement", R.getReplacementText().str()}});
      }
    Item["fixes"] = std::move(Fixes);
    Items.push_back(std::move(Item));
  }
  OS << llvm::formatv("{0:2}",
                      json::Value(json::Object{{"tool", "torchtidy"},
                                               {"version", TORCHTIDY_VERSION},
                                               {"findings", std::move(Items)}}))
     << "\n";
}

void writeSarif(const std::vector<Finding> &Findings,
                llvm::StringRef SourceRoot, llvm::raw_ostream &OS) {
  LineTable Lines;
  auto Uri = [&](llvm::StringRef Path) {
    llvm::SmallString<256> Relative(Path);
    if (!SourceRoot.empty() &&
        llvm::sys::path::replace_path_prefix(Relative, SourceRoot, ""))
      return json::Object{
          {"uri", llvm::sys::path::relative_path(Relative).str()},
          {"uriBaseId", "%SRCROOT%"}};
    return json::Object{{"uri", "file://" + Path.str()}};
  };
  auto Region = [&](llvm::StringRef File, unsigned Offset) {
    auto [Line, Column] = Lines.position(File, Offset);
    return json::Object{{"startLine", Line}, {"startColumn", Column}};
  };
  auto PhysicalLocation = [&](const Finding &F,
                              const clang::tooling::DiagnosticMessage &M) {
    std::string File = absolutePath(F, M.FilePath);
    return json::Object{{"physicalLocation",
                         json::Object{{"artifactLocation", Uri(File)},
                                      {"region", Region(File, M.FileOffset)}}}};
  };

  json::Array Rules;
  for (const CheckInfo &Check : AllChecks)
    Rules.push_back(json::Object{
        {"id", Check.Name},
        {"name", Check.Name},
        {"shortDescription", json::Object{{"text", Check.Summary}}},
        {"fullDescription", json::Object{{"text", Check.Summary}}},
        {"help", json::Object{{"text", documentationOf(Check.Name)},
                              {"markdown", documentationOf(Check.Name)}}},
        {"defaultConfiguration", json::Object{{"level", "warning"}}},
        {"properties", json::Object{{"tags", json::Array{Check.Level}}}}});

  json::Array Results;
  for (const Finding &F : Findings) {
    json::Object Result;
    if (isCompilerError(F)) {
      Result["ruleId"] = "clang-diagnostic-error";
      Result["level"] = "error";
    } else {
      Result["ruleId"] = F.DiagnosticName;
      for (size_t I = 0; I < std::size(AllChecks); ++I)
        if (F.DiagnosticName == AllChecks[I].Name)
          Result["ruleIndex"] = static_cast<int64_t>(I);
      Result["level"] = "warning";
    }
    Result["message"] = json::Object{{"text", F.Message.Message}};
    Result["locations"] = json::Array{PhysicalLocation(F, F.Message)};
    json::Array Related;
    for (size_t I = 0; I < F.Notes.size(); ++I) {
      json::Object Note = PhysicalLocation(F, F.Notes[I]);
      Note["id"] = static_cast<int64_t>(I);
      Note["message"] = json::Object{{"text", F.Notes[I].Message}};
      Related.push_back(std::move(Note));
    }
    if (!Related.empty())
      Result["relatedLocations"] = std::move(Related);
    // The same notes as a path a SARIF viewer steps through: where the
    // tensor got its device, each move, in the order the analysis gives
    // them, and last the op the finding is about.
    if (!F.Notes.empty()) {
      json::Array Steps;
      auto Step = [&](const clang::tooling::DiagnosticMessage &M) {
        json::Object Location = PhysicalLocation(F, M);
        Location["message"] = json::Object{{"text", M.Message}};
        return json::Object{{"location", std::move(Location)}};
      };
      for (const auto &Note : F.Notes)
        Steps.push_back(Step(Note));
      Steps.push_back(Step(F.Message));
      Result["codeFlows"] = json::Array{json::Object{
          {"threadFlows",
           json::Array{json::Object{{"locations", std::move(Steps)}}}}}};
    }
    json::Array Changes;
    for (const auto &[File, Replacements] : F.Message.Fix) {
      json::Array Edits;
      for (const auto &R : Replacements)
        Edits.push_back(json::Object{
            {"deletedRegion", json::Object{{"charOffset", R.getOffset()},
                                           {"charLength", R.getLength()}}},
            {"insertedContent",
             json::Object{{"text", R.getReplacementText().str()}}}});
      Changes.push_back(
          json::Object{{"artifactLocation", Uri(absolutePath(F, File))},
                       {"replacements", std::move(Edits)}});
    }
    if (!Changes.empty())
      Result["fixes"] = json::Array{json::Object{
          {"description", json::Object{{"text", F.Message.Message}}},
          {"artifactChanges", std::move(Changes)}}};
    Results.push_back(std::move(Result));
  }

  json::Object Run{
      {"tool",
       json::Object{{"driver", json::Object{{"name", "torchtidy"},
                                            {"version", TORCHTIDY_VERSION},
                                            {"rules", std::move(Rules)}}}}},
      {"results", std::move(Results)}};
  if (!SourceRoot.empty())
    Run["originalUriBaseIds"] = json::Object{
        {"%SRCROOT%",
         json::Object{{"uri", "file://" + SourceRoot.str() + "/"}}}};
  OS << llvm::formatv(
            "{0:2}",
            json::Value(json::Object{
                {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                {"version", "2.1.0"},
                {"runs", json::Array{std::move(Run)}}}))
     << "\n";
}

} // namespace torchtidy
