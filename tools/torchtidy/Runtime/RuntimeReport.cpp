//===--- RuntimeReport.cpp - The runtime shim's report, symbolized --------===//

#include "RuntimeReport.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/DebugInfo/Symbolize/Symbolize.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace torchtidy {
namespace {

/// LibTorch, its runtimes (OpenMP, CUDA, oneDNN), the shim itself and the
/// system's libraries: frames there are not where the program went wrong.
bool isLibraryOutsideProgram(StringRef Path) {
  StringRef Name = sys::path::filename(Path);
  for (StringRef Prefix :
       {"libtorch", "libc10", "libcaffe2", "libshm", "libgomp", "libiomp",
        "libmkl", "libdnnl", "libcu", "libnv"})
    if (Name.starts_with(Prefix))
      return true;
  for (StringRef Dir : {"/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/"})
    if (Path.starts_with(Dir))
      return true;
  return false;
}

/// Code inlined into the program from LibTorch's or the C++ library's
/// headers (at::Tensor::add_, std::function, std::accumulate): the caller is
/// the user frame.
bool isHeaderOutsideProgram(StringRef File) {
  // The debug information names the C++ library's headers as the compiler
  // found them: /usr/lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12/.
  SmallString<256> Normal(File);
  sys::path::remove_dots(Normal, /*remove_dot_dot=*/true);
  StringRef Path = Normal;
  // The system's headers, also a system root's, and the C++ library's
  // wherever it is (libstdc++'s include/c++/<version>, libc++'s c++/v1).
  if (Path.contains("/usr/include/") || Path.contains("/include/c++/"))
    return true;
  for (StringRef Dir : {"/torch/csrc/", "/ATen/", "/c10/", "/caffe2/"})
    if (Path.contains(Dir))
      return true;
  return false;
}

std::optional<uint64_t> parseOffset(const json::Value &Offset) {
  if (std::optional<int64_t> Number = Offset.getAsInteger())
    return *Number;
  std::optional<StringRef> Text = Offset.getAsString();
  uint64_t Value;
  if (!Text || Text->getAsInteger(0, Value))
    return std::nullopt;
  return Value;
}

json::Object toJson(const SourceFrame &Frame) {
  return json::Object{{"function", Frame.Function},
                      {"file", Frame.File},
                      {"line", Frame.Line},
                      {"column", Frame.Column}};
}

SourceFrame frameFromJson(const json::Object &Object) {
  SourceFrame Frame;
  Frame.Function = Object.getString("function").value_or("").str();
  Frame.File = Object.getString("file").value_or("").str();
  Frame.Line = Object.getInteger("line").value_or(0);
  Frame.Column = Object.getInteger("column").value_or(0);
  return Frame;
}

/// The program's own frames among an event's raw frames, innermost first.
json::Array userFrames(symbolize::LLVMSymbolizer &Symbolizer,
                       const StringMap<std::string> &Modules,
                       const json::Array &RawFrames) {
  json::Array Frames;
  for (const json::Value &Raw : RawFrames) {
    const json::Object *Object = Raw.getAsObject();
    if (!Object)
      continue;
    std::optional<int64_t> Module = Object->getInteger("module");
    const json::Value *OffsetValue = Object->get("offset");
    if (!Module || !OffsetValue)
      continue;
    auto Path = Modules.find(std::to_string(*Module));
    std::optional<uint64_t> Offset = parseOffset(*OffsetValue);
    if (Path == Modules.end() || !Offset || *Offset == 0 ||
        isLibraryOutsideProgram(Path->second))
      continue;
    // A return address: the call is the instruction before it.
    Expected<DIInliningInfo> Inlined = Symbolizer.symbolizeInlinedCode(
        Path->second, {*Offset - 1, object::SectionedAddress::UndefSection});
    if (!Inlined) {
      consumeError(Inlined.takeError());
      continue;
    }
    for (uint32_t I = 0; I < Inlined->getNumberOfFrames(); ++I) {
      const DILineInfo &Info = Inlined->getFrame(I);
      SourceFrame Frame;
      if (Info.FunctionName != DILineInfo::BadString)
        Frame.Function = Info.FunctionName;
      if (Info.FileName != DILineInfo::BadString) {
        if (isHeaderOutsideProgram(Info.FileName))
          continue;
        Frame.File = Info.FileName;
        Frame.Line = Info.Line;
        Frame.Column = Info.Column;
      }
      if (!Frame.Function.empty() || !Frame.File.empty())
        Frames.push_back(toJson(Frame));
    }
  }
  return Frames;
}

std::string describeEnd(const json::Object *End) {
  if (!End)
    return "unknown";
  StringRef How = End->getString("how").value_or("unknown");
  if (How == "exit")
    return "exit " + std::to_string(End->getInteger("code").value_or(0));
  if (How == "signal")
    return "signal " + std::to_string(End->getInteger("signal").value_or(0));
  if (How == "exception")
    return "uncaught exception: " +
           End->getString("what").value_or("").split('\n').first.str();
  return How.str();
}

RuntimeEvent eventFromJson(const json::Object &Object) {
  RuntimeEvent Event;
  Event.Kind = Object.getString("kind").value_or("").str();
  Event.Op = Object.getString("op").value_or("").str();
  Event.Count = Object.getInteger("count").value_or(0);
  Event.GrowthPerIteration =
      Object.getNumber("growth_per_iteration").value_or(0);
  if (const json::Array *Operands = Object.getArray("operands"))
    for (const json::Value &Operand : *Operands)
      if (const json::Object *O = Operand.getAsObject())
        Event.Devices.push_back(O->getString("device").value_or("?").str());
  if (const json::Array *Frames = Object.getArray("user_frames"))
    for (const json::Value &Frame : *Frames)
      if (const json::Object *F = Frame.getAsObject())
        Event.UserFrames.push_back(frameFromJson(*F));
  return Event;
}

} // namespace

void symbolizeReport(json::Object &Report) {
  StringMap<std::string> Modules;
  if (const json::Array *List = Report.getArray("modules"))
    for (const json::Value &Module : *List)
      if (const json::Object *M = Module.getAsObject())
        if (std::optional<int64_t> Id = M->getInteger("id"))
          Modules[std::to_string(*Id)] =
              M->getString("path").value_or("").str();

  // Linkage names, demangled: without debug information the symbol table
  // still names the function.
  symbolize::LLVMSymbolizer Symbolizer;
  json::Array *Events = Report.getArray("events");
  if (!Events)
    return;
  for (json::Value &Value : *Events) {
    json::Object *Event = Value.getAsObject();
    if (!Event)
      continue;
    if (!Event->getArray("user_frames")) {
      const json::Array *Raw = Event->getArray("frames");
      (*Event)["user_frames"] =
          Raw ? userFrames(Symbolizer, Modules, *Raw) : json::Array();
    }
    const json::Array &Frames = *Event->getArray("user_frames");
    auto WithLine = llvm::find_if(Frames, [](const json::Value &F) {
      return F.getAsObject() && F.getAsObject()->getInteger("line");
    });
    if (WithLine != Frames.end())
      (*Event)["location"] = *WithLine;
  }
}

Expected<json::Value> readJsonFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(Path);
  if (!Buffer)
    return createStringError(Buffer.getError(), "cannot read '%s': %s",
                             Path.str().c_str(),
                             Buffer.getError().message().c_str());
  Expected<json::Value> Value = json::parse((*Buffer)->getBuffer());
  if (!Value)
    return createStringError(inconvertibleErrorCode(),
                             "'%s' is not valid JSON: %s", Path.str().c_str(),
                             toString(Value.takeError()).c_str());
  return Value;
}

Error writeJsonFileAtomically(StringRef Path, const json::Value &Value) {
  SmallString<256> Temporary;
  int FD;
  if (std::error_code EC =
          sys::fs::createUniqueFile(Path + ".tmp-%%%%%%", FD, Temporary))
    return createStringError(EC, "cannot write next to '%s': %s",
                             Path.str().c_str(), EC.message().c_str());
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << formatv("{0:2}", Value) << "\n";
    if (OS.has_error()) {
      sys::fs::remove(Temporary);
      return createStringError(OS.error(), "cannot write '%s': %s",
                               Temporary.c_str(), OS.error().message().c_str());
    }
  }
  if (std::error_code EC = sys::fs::rename(Temporary, Path)) {
    sys::fs::remove(Temporary);
    return createStringError(EC, "cannot write '%s': %s", Path.str().c_str(),
                             EC.message().c_str());
  }
  return Error::success();
}

Expected<RuntimeReport> loadRuntimeReport(StringRef Path) {
  Expected<json::Value> Value = readJsonFile(Path);
  if (!Value)
    return Value.takeError();
  json::Object *Object = Value->getAsObject();
  if (!Object)
    return createStringError(inconvertibleErrorCode(),
                             "'%s' is not a torchtidy runtime report",
                             Path.str().c_str());
  return interpretRuntimeReport(*Object, Path);
}

Expected<RuntimeReport> interpretRuntimeReport(json::Object &Object,
                                               StringRef Path) {
  if (Object.getString("format") != "torchtidy-runtime")
    return createStringError(inconvertibleErrorCode(),
                             "'%s' is not a torchtidy runtime report",
                             Path.str().c_str());
  if (Object.getInteger("version") != 1)
    return createStringError(
        inconvertibleErrorCode(),
        "'%s' is a runtime report of an unsupported version (this torchtidy "
        "reads version 1)",
        Path.str().c_str());
  symbolizeReport(Object);

  RuntimeReport Report;
  Report.Path = Path.str();
  Report.End = describeEnd(Object.getObject("end"));
  Report.DroppedEvents = Object.getInteger("dropped_events").value_or(0);
  if (const json::Array *Problems = Object.getArray("problems"))
    for (const json::Value &Problem : *Problems)
      if (std::optional<StringRef> Text = Problem.getAsString())
        Report.Problems.push_back(Text->str());
  if (const json::Array *Events = Object.getArray("events"))
    for (const json::Value &Event : *Events)
      if (const json::Object *E = Event.getAsObject())
        Report.Events.push_back(eventFromJson(*E));
  return Report;
}

std::string describe(const SourceFrame &Frame) {
  if (Frame.File.empty())
    return Frame.Function.empty() ? "an unknown place" : Frame.Function;
  return Frame.File + ":" + std::to_string(Frame.Line);
}

} // namespace torchtidy
