//===--- LintDiagnostics.cpp - A lint's findings as LSP diagnostics -------===//

#include "LintDiagnostics.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>

namespace json = llvm::json;
namespace lsp = llvm::lsp;

namespace torchtidy {
namespace {

/// A file's text, for LSP positions: lines from 0 and characters counted in
/// UTF-16 code units (the protocol's default), from torchtidy's 1-based
/// lines and byte columns or offsets.
class SourceText {
public:
  explicit SourceText(llvm::StringRef File) {
    if (auto Buffer = llvm::MemoryBuffer::getFile(File))
      Text = (*Buffer)->getBuffer().str();
    LineStarts.push_back(0);
    for (size_t I = 0; I < Text.size(); ++I)
      if (Text[I] == '\n')
        LineStarts.push_back(I + 1);
  }

  unsigned offsetOf(int64_t Line, int64_t Column) const {
    size_t LineIndex = std::clamp<int64_t>(Line - 1, 0, LineStarts.size() - 1);
    size_t Offset = LineStarts[LineIndex] + std::max<int64_t>(Column - 1, 0);
    return std::min(Offset, Text.size());
  }

  lsp::Position positionOf(size_t Offset) const {
    Offset = std::min(Offset, Text.size());
    size_t LineIndex =
        std::upper_bound(LineStarts.begin(), LineStarts.end(), Offset) -
        LineStarts.begin() - 1;
    int Character = 0;
    for (size_t I = LineStarts[LineIndex]; I < Offset; ++I) {
      unsigned char Byte = Text[I];
      if ((Byte & 0xC0) != 0x80)
        Character += Byte >= 0xF0 ? 2 : 1; // Four bytes: a surrogate pair.
    }
    lsp::Position Position;
    Position.line = LineIndex;
    Position.character = Character;
    return Position;
  }

  /// From Offset to the end of the identifier that starts there (the name
  /// a finding points at), else one character.
  lsp::Range rangeAt(size_t Offset) const {
    size_t End = Offset;
    while (End < Text.size() &&
           (std::isalnum(static_cast<unsigned char>(Text[End])) ||
            Text[End] == '_'))
      ++End;
    if (End == Offset && End < Text.size() && Text[End] != '\n')
      ++End;
    return lsp::Range(positionOf(Offset), positionOf(End));
  }

private:
  std::string Text;
  std::vector<size_t> LineStarts;
};

class SourceTexts {
public:
  const SourceText &of(llvm::StringRef File) {
    auto It = Texts.find(File);
    if (It == Texts.end())
      It = Texts.try_emplace(File, File).first;
    return It->second;
  }

private:
  llvm::StringMap<SourceText> Texts;
};

std::string uriOf(llvm::StringRef File) {
  if (llvm::Expected<lsp::URIForFile> Uri = lsp::URIForFile::fromFile(File))
    return Uri->uri().str();
  else
    llvm::consumeError(Uri.takeError());
  return "file://" + File.str();
}

/// Bugs are warnings, as clangd shows clang-tidy's; what only costs time is
/// information; style is a hint. Compiler errors never reach here.
lsp::DiagnosticSeverity severityOf(llvm::StringRef Level) {
  return llvm::StringSwitch<lsp::DiagnosticSeverity>(Level)
      .Case("bug", lsp::DiagnosticSeverity::Warning)
      .Case("performance", lsp::DiagnosticSeverity::Information)
      .Case("style", lsp::DiagnosticSeverity::Hint)
      .Default(lsp::DiagnosticSeverity::Warning);
}

bool isCompilerError(const json::Object &Finding) {
  return Finding.getString("level") == std::optional<llvm::StringRef>("error");
}

/// Where a finding or note of the JSON output is, as an offset in its file.
std::optional<std::pair<std::string, size_t>> offsetOf(const json::Object &Item,
                                                       SourceTexts &Texts) {
  std::optional<llvm::StringRef> File = Item.getString("file");
  std::optional<int64_t> Line = Item.getInteger("line");
  std::optional<int64_t> Column = Item.getInteger("column");
  if (!File || !Line || !Column)
    return std::nullopt;
  return std::make_pair(File->str(), Texts.of(*File).offsetOf(*Line, *Column));
}

/// The finding's fix-its as a workspace edit: {"changes": {uri: [edits]}}.
json::Object editOf(const json::Array &Fixes, SourceTexts &Texts) {
  std::map<std::string, json::Array> Changes;
  for (const json::Value &Fix : Fixes) {
    const json::Object *Edit = Fix.getAsObject();
    if (!Edit)
      continue;
    std::optional<llvm::StringRef> File = Edit->getString("file");
    std::optional<int64_t> Offset = Edit->getInteger("offset");
    std::optional<int64_t> Length = Edit->getInteger("length");
    std::optional<llvm::StringRef> Replacement = Edit->getString("replacement");
    if (!File || !Offset || !Length || !Replacement)
      continue;
    const SourceText &Text = Texts.of(*File);
    lsp::Range Range(Text.positionOf(*Offset),
                     Text.positionOf(*Offset + *Length));
    Changes[uriOf(*File)].push_back(json::Object{
        {"range", toJSON(Range)}, {"newText", Replacement->str()}});
  }
  json::Object ChangesObject;
  for (auto &[Uri, Edits] : Changes)
    ChangesObject[Uri] = std::move(Edits);
  return json::Object{{"changes", std::move(ChangesObject)}};
}

/// The last line torchtidy wrote on stderr, without its "torchtidy: " and
/// "error: " prefixes: why the command did not lint the file.
std::string reasonFrom(llvm::StringRef Stderr) {
  llvm::SmallVector<llvm::StringRef> Lines;
  Stderr.trim().split(Lines, '\n');
  llvm::StringRef Last = Lines.empty() ? "" : Lines.back().trim();
  Last.consume_front("torchtidy: ");
  Last.consume_front("error: ");
  return Last.str();
}

/// A diagnostic of torchtidy's at Range.
lsp::Diagnostic diagnostic(lsp::Range Range, lsp::DiagnosticSeverity Severity,
                           std::string Message) {
  lsp::Diagnostic Result;
  Result.range = Range;
  Result.severity = Severity;
  Result.source = "torchtidy";
  Result.message = std::move(Message);
  return Result;
}

} // namespace

json::Value fileNotice(llvm::StringRef Message) {
  return toJSON(diagnostic(lsp::Range(lsp::Position(0, 0)),
                           lsp::DiagnosticSeverity::Information,
                           Message.str()));
}

FileDiagnostics diagnosticsOf(llvm::StringRef File, const LintOutput &Output,
                              llvm::StringRef DocsFolder) {
  FileDiagnostics Result;
  llvm::Expected<json::Value> Parsed = json::parse(Output.Stdout);
  const json::Object *Document = Parsed ? Parsed->getAsObject() : nullptr;
  const json::Array *Findings =
      Document ? Document->getArray("findings") : nullptr;
  if (!Parsed)
    llvm::consumeError(Parsed.takeError());
  if (!Findings) {
    std::string Reason = reasonFrom(Output.Stderr);
    // A header, or a file of another build: torchtidy lints what the build
    // compiles, and says so in the log rather than on every header.
    if (llvm::StringRef(Reason).contains("is not in the compilation database"))
      Result.Skipped = Reason;
    else if (Output.ExitCode < 0)
      Result.Diagnostics.push_back(fileNotice(
          "torchtidy did not check this file: its lint ended abnormally" +
          (Reason.empty() ? std::string() : " (" + Reason + ")")));
    else
      Result.Diagnostics.push_back(fileNotice(
          "torchtidy did not check this file: " +
          (Reason.empty() ? "its lint printed no findings" : Reason)));
    return Result;
  }

  SourceTexts Texts;
  const SourceText &Own = Texts.of(File);
  bool SaidParseError = false;
  for (const json::Value &Item : *Findings) {
    const json::Object *Finding = Item.getAsObject();
    if (!Finding)
      continue;
    std::optional<std::pair<std::string, size_t>> Where =
        offsetOf(*Finding, Texts);
    if (!Where)
      continue;
    // Compiler errors are clangd's to show; the one thing to say here is
    // that the checks saw an incomplete AST, once, at the first error.
    if (isCompilerError(*Finding)) {
      if (SaidParseError)
        continue;
      SaidParseError = true;
      Result.Diagnostics.push_back(toJSON(diagnostic(
          Where->first == File ? Own.rangeAt(Where->second)
                               : lsp::Range(lsp::Position(0, 0)),
          lsp::DiagnosticSeverity::Information,
          "clang cannot parse this file, so torchtidy's findings in it may "
          "be incomplete: " +
              Finding->getString("message").value_or("").str())));
      continue;
    }
    // Findings in the headers a file includes are published with the file
    // that is linted only where they are: in this file.
    if (Where->first != File)
      continue;
    lsp::Diagnostic Diagnostic =
        diagnostic(Own.rangeAt(Where->second),
                   severityOf(Finding->getString("level").value_or("")),
                   Finding->getString("message").value_or("").str());
    // Written out here rather than with the library's toJSON: that refers
    // to the URI's string instead of copying it.
    json::Array Related;
    if (const json::Array *Notes = Finding->getArray("notes"))
      for (const json::Value &NoteValue : *Notes) {
        const json::Object *Note = NoteValue.getAsObject();
        if (!Note)
          continue;
        std::optional<std::pair<std::string, size_t>> NoteAt =
            offsetOf(*Note, Texts);
        if (!NoteAt)
          continue;
        lsp::Range Range = Texts.of(NoteAt->first).rangeAt(NoteAt->second);
        Related.push_back(json::Object{
            {"location", json::Object{{"uri", uriOf(NoteAt->first)},
                                      {"range", toJSON(Range)}}},
            {"message", Note->getString("message").value_or("").str()}});
      }
    json::Value Published = toJSON(Diagnostic);
    if (!Related.empty())
      Published.getAsObject()->try_emplace("relatedInformation",
                                           std::move(Related));
    // The check's name as the code, linked to its page (LSP 3.16 fields the
    // library's Diagnostic does not have).
    std::string Check = Finding->getString("check").value_or("").str();
    json::Object &Fields = *Published.getAsObject();
    Fields["code"] = Check;
    llvm::SmallString<256> Page(DocsFolder);
    llvm::sys::path::append(Page, Check + ".md");
    if (!DocsFolder.empty() && llvm::sys::fs::exists(Page))
      Fields["codeDescription"] = json::Object{{"href", uriOf(Page)}};
    const json::Array *Fixes = Finding->getArray("fixes");
    if (Fixes && !Fixes->empty()) {
      json::Object Action{{"title", "Apply torchtidy's fix (" + Check + ")"},
                          {"kind", "quickfix"},
                          {"diagnostics", json::Array{Published}},
                          {"isPreferred", true},
                          {"edit", editOf(*Fixes, Texts)}};
      Result.Fixes.push_back(
          {Diagnostic.range, Published, json::Value(std::move(Action))});
    }
    Result.Diagnostics.push_back(std::move(Published));
  }
  return Result;
}

} // namespace torchtidy
