//===--- StaticFindings.cpp - Findings read back from --format=json -------===//

#include "StaticFindings.h"
#include "RuntimeReport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace torchtidy {

std::string StaticFinding::describe() const {
  return File + ":" + std::to_string(Line) + ":" + std::to_string(Column) +
         " " + Check;
}

Expected<std::vector<StaticFinding>> loadStaticFindings(StringRef Path) {
  Expected<json::Value> Value = readJsonFile(Path);
  if (!Value)
    return Value.takeError();
  const json::Object *Object = Value->getAsObject();
  const json::Array *Items = Object ? Object->getArray("findings") : nullptr;
  if (!Items || Object->getString("tool") != "torchtidy")
    return createStringError(inconvertibleErrorCode(),
                             "'%s' holds no torchtidy findings (write them "
                             "with torchtidy --format=json)",
                             Path.str().c_str());
  std::vector<StaticFinding> Findings;
  for (const json::Value &Item : *Items) {
    const json::Object *F = Item.getAsObject();
    if (!F)
      continue;
    StaticFinding Finding;
    Finding.Check = F->getString("check").value_or("").str();
    Finding.Level = F->getString("level").value_or("").str();
    Finding.File = F->getString("file").value_or("").str();
    Finding.Line = F->getInteger("line").value_or(0);
    Finding.Column = F->getInteger("column").value_or(0);
    Finding.Message = F->getString("message").value_or("").str();
    Findings.push_back(std::move(Finding));
  }
  return Findings;
}

bool isSameFile(StringRef A, StringRef B) {
  if (A.empty() || B.empty())
    return false;
  if (A == B)
    return true;
  SmallString<256> RealA, RealB;
  if (!sys::fs::real_path(A, RealA) && !sys::fs::real_path(B, RealB) &&
      RealA == RealB)
    return true;
  // Built in one checkout and linted in another (a GPU machine's copy):
  // the file and its directory still have the same names.
  auto Tail = [](StringRef Path) {
    StringRef Parent = sys::path::parent_path(Path);
    return std::make_pair(sys::path::filename(Parent),
                          sys::path::filename(Path));
  };
  return Tail(A) == Tail(B);
}

} // namespace torchtidy
