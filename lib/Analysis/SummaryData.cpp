//===--- SummaryData.cpp - A function summary as data ---------------------===//
//
// The JSON is compact and private to one build of the tool (the result
// cache is keyed by the build): enums are written as their numbers.
//
//===----------------------------------------------------------------------===//

#include "Analysis/SummaryData.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

using namespace clang;
namespace json = llvm::json;

namespace torchtidy {
namespace {

/// The class whose methods a summary's "module's device" or "device member"
/// are relative to.
const CXXRecordDecl *classOf(const FunctionDecl *F) {
  const auto *Method = dyn_cast<CXXMethodDecl>(F);
  return Method ? Method->getParent() : nullptr;
}

class Writer {
public:
  Writer(const FunctionDecl *Definition, const SourceManager &Sources)
      : Definition(Definition), Sources(Sources) {}

  json::Value summary(const FunctionSummary &S) {
    json::Array Effects, ModuleInputs, SameDevice, HostSyncs, Transfers;
    for (const auto &[Changed, AtExit] : S.Effects)
      if (std::optional<unsigned> Index = parameterIndex(Changed))
        Effects.push_back(json::Object{{"p", *Index}, {"v", value(AtExit)}});
    for (const ModuleInputRequirement &Required : S.ModuleInputs) {
      std::optional<unsigned> Index = parameterIndex(Required.Module);
      if (!Index)
        continue;
      json::Array History;
      for (const Origin &O : Required.InputHistory)
        History.push_back(origin(O));
      ModuleInputs.push_back(json::Object{{"p", *Index},
                                          {"in", placement(Required.Inputs)},
                                          {"call", origin(Required.InnerCall)},
                                          {"h", std::move(History)}});
    }
    for (const SameDeviceRequirement &Required : S.SameDeviceParameters) {
      std::optional<unsigned> First = parameterIndex(Required.First);
      std::optional<unsigned> Second = parameterIndex(Required.Second);
      if (First && Second)
        SameDevice.push_back(json::Object{
            {"a", *First}, {"b", *Second}, {"op", origin(Required.InnerOp)}});
    }
    for (const HostSyncInFunction &Sync : S.HostSyncs)
      HostSyncs.push_back(json::Object{{"v", value(Sync.Synced)},
                                       {"at", location(Sync.Copy)},
                                       {"what", Sync.What},
                                       {"t", Sync.Tensor}});
    for (const TransferInFunction &Transfer : S.Transfers)
      Transfers.push_back(json::Object{{"v", value(Transfer.Moved)},
                                       {"at", location(Transfer.Transfer)},
                                       {"what", Transfer.What}});
    return json::Object{
        {"r", value(S.Result)},        {"fx", std::move(Effects)},
        {"mv", S.MovesObject},         {"mi", std::move(ModuleInputs)},
        {"sd", std::move(SameDevice)}, {"hs", std::move(HostSyncs)},
        {"tr", std::move(Transfers)},  {"pod", S.PassesOverData}};
  }

  json::Value location(SourceLocation Loc) {
    if (Loc.isInvalid())
      return nullptr;
    Loc = Sources.getExpansionLoc(Loc);
    OptionalFileEntryRef File =
        Sources.getFileEntryRefForID(Sources.getFileID(Loc));
    if (!File)
      return nullptr;
    llvm::SmallString<256> Path(File->getName());
    Sources.getFileManager().makeAbsolutePath(Path);
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/false);
    return json::Array{std::string(Path), Sources.getFileOffset(Loc)};
  }

  json::Value value(const AbstractValue &V) {
    json::Array Origins, Elements;
    for (const Origin &O : V.Origins)
      Origins.push_back(origin(O));
    for (const AbstractValue &Element : V.Elements)
      Elements.push_back(value(Element));
    json::Object Result{
        {"w", placement(V.Where)},       {"z", V.ZeroDim},
        {"g", static_cast<int>(V.Grad)}, {"m", static_cast<int>(V.Memory)},
        {"o", std::move(Origins)},       {"f", V.FromFailingOp},
        {"e", std::move(Elements)},      {"mz", V.MaybeZeroDim}};
    if (V.Rank)
      Result["rk"] = *V.Rank;
    return Result;
  }

private:
  std::optional<unsigned> parameterIndex(const ValueDecl *D) {
    const auto *Parm = dyn_cast_or_null<ParmVarDecl>(D);
    // A parameter of any declaration of the function: callers name the
    // callee's parameters by the declaration they call.
    const auto *Of =
        Parm ? dyn_cast<FunctionDecl>(Parm->getDeclContext()) : nullptr;
    if (!Of || Of->getCanonicalDecl() != Definition->getCanonicalDecl())
      return std::nullopt;
    return Parm->getFunctionScopeIndex();
  }

  json::Value origin(const Origin &O) {
    return json::Object{{"k", static_cast<int>(O.K)},
                        {"l", location(O.Loc)},
                        {"s", O.Subject},
                        {"d", O.Detail},
                        {"w", O.DeviceWords}};
  }

  json::Value placement(const Placement &P) {
    json::Array Devices;
    for (const Device &D : P.Devices.devices())
      Devices.push_back(json::Array{D.Type, D.Index});
    json::Object Result{{"s", static_cast<int>(P.State)},
                        {"d", std::move(Devices)},
                        {"a", P.Devices.isAny()}};
    if (std::optional<unsigned> Index =
            parameterIndex(dyn_cast_or_null<ValueDecl>(P.DeviceVar)))
      Result["p"] = *Index;
    else if (P.DeviceVar && P.DeviceVar == classOf(Definition))
      Result["c"] = true;
    else if (const auto *Field = dyn_cast_or_null<FieldDecl>(P.DeviceVar);
             Field && Field->getParent() == classOf(Definition))
      Result["f"] = Field->getName();
    return Result;
  }

  const FunctionDecl *Definition;
  const SourceManager &Sources;
};

/// Reads what Writer wrote; any field missing or out of range makes the
/// whole summary unreadable (Ok false), never a guess.
class Reader {
public:
  Reader(const FunctionDecl *Declaration, SourceManager &Sources)
      : Declaration(Declaration), Sources(Sources) {}

  bool Ok = true;
  /// Files added to Sources for notes.
  std::vector<std::string> OpenedForNotes;

  FunctionSummary summary(const json::Object &O) {
    FunctionSummary S;
    S.Result = value(O.get("r"));
    for (const json::Object *E : objects(O.get("fx")))
      if (const ParmVarDecl *Parm = parameter(E->get("p")))
        S.Effects.emplace_back(Parm, value(E->get("v")));
    S.MovesObject = boolean(O.get("mv"));
    for (const json::Object *E : objects(O.get("mi"))) {
      ModuleInputRequirement Required;
      Required.Module = parameter(E->get("p"));
      Required.Inputs = placement(E->get("in"));
      Required.InnerCall = origin(E->get("call"));
      for (const json::Value &Step : array(E->get("h")))
        Required.InputHistory.push_back(origin(&Step));
      Ok = Ok && Required.Module;
      S.ModuleInputs.push_back(std::move(Required));
    }
    for (const json::Object *E : objects(O.get("sd"))) {
      SameDeviceRequirement Required;
      Required.First = parameter(E->get("a"));
      Required.Second = parameter(E->get("b"));
      Required.InnerOp = origin(E->get("op"));
      Ok = Ok && Required.First && Required.Second;
      S.SameDeviceParameters.push_back(std::move(Required));
    }
    for (const json::Object *E : objects(O.get("hs"))) {
      HostSyncInFunction Sync;
      Sync.Synced = value(E->get("v"));
      Sync.Copy = location(E->get("at"));
      Sync.What = string(E->get("what"));
      Sync.Tensor = string(E->get("t"));
      S.HostSyncs.push_back(std::move(Sync));
    }
    for (const json::Object *E : objects(O.get("tr"))) {
      TransferInFunction Transfer;
      Transfer.Moved = value(E->get("v"));
      Transfer.Transfer = location(E->get("at"));
      Transfer.What = string(E->get("what"));
      S.Transfers.push_back(std::move(Transfer));
    }
    S.PassesOverData = boolean(O.get("pod"));
    return S;
  }

  SourceLocation location(const json::Value *V) {
    if (!V || V->kind() == json::Value::Null)
      return {};
    const json::Array *A = V->getAsArray();
    std::optional<llvm::StringRef> Path =
        A && A->size() == 2 ? (*A)[0].getAsString() : std::nullopt;
    std::optional<int64_t> Offset =
        A && A->size() == 2 ? (*A)[1].getAsInteger() : std::nullopt;
    if (!Path || !Offset || *Offset < 0) {
      Ok = false;
      return {};
    }
    // A note in a file this unit never read (the other unit's .cpp): the
    // file is added to this unit's sources so that the note can point there.
    OptionalFileEntryRef File =
        Sources.getFileManager().getOptionalFileRef(*Path);
    if (!File)
      return {};
    FileID ID = Sources.translateFile(*File);
    if (ID.isInvalid()) {
      ID = Sources.createFileID(*File, SourceLocation(), SrcMgr::C_User);
      OpenedForNotes.push_back(Path->str());
    }
    // The file changed since its unit was analysed: the note has no place.
    std::optional<llvm::MemoryBufferRef> Buffer = Sources.getBufferOrNone(ID);
    if (!Buffer || static_cast<uint64_t>(*Offset) > Buffer->getBufferSize())
      return {};
    return Sources.getComposedLoc(ID, static_cast<unsigned>(*Offset));
  }

  AbstractValue value(const json::Value *V) {
    const json::Object *O = object(V);
    if (!O)
      return AbstractValue::unknown();
    AbstractValue Result;
    Result.Where = placement(O->get("w"));
    Result.ZeroDim = boolean(O->get("z"));
    Result.Grad = static_cast<GradHistory>(
        integer(O->get("g"), 0, static_cast<int>(GradHistory::Leaf))
            .value_or(0));
    Result.Memory = static_cast<HostMemory>(
        integer(O->get("m"), 0, static_cast<int>(HostMemory::Pinned))
            .value_or(0));
    for (const json::Value &Step : array(O->get("o")))
      Result.Origins.push_back(origin(&Step));
    Result.FromFailingOp = boolean(O->get("f"));
    for (const json::Value &Element : array(O->get("e")))
      Result.Elements.push_back(value(&Element));
    Result.MaybeZeroDim = boolean(O->get("mz"));
    if (O->get("rk"))
      if (std::optional<int64_t> Rank = integer(O->get("rk"), 0, 64))
        Result.Rank = static_cast<unsigned>(*Rank);
    return Result;
  }

  std::string string(const json::Value *V) {
    std::optional<llvm::StringRef> S = V ? V->getAsString() : std::nullopt;
    Ok = Ok && S;
    return S ? S->str() : std::string();
  }

private:
  /// V as an object; anything else is an error.
  const json::Object *object(const json::Value *V) {
    const json::Object *O = V ? V->getAsObject() : nullptr;
    Ok = Ok && O;
    return O;
  }
  const json::Array &array(const json::Value *V) {
    static const json::Array Empty;
    if (const json::Array *A = V ? V->getAsArray() : nullptr)
      return *A;
    Ok = false;
    return Empty;
  }
  /// The objects of an array; anything else in it is an error.
  llvm::SmallVector<const json::Object *, 4> objects(const json::Value *V) {
    llvm::SmallVector<const json::Object *, 4> Found;
    for (const json::Value &Element : array(V)) {
      if (const json::Object *O = Element.getAsObject())
        Found.push_back(O);
      else
        Ok = false;
    }
    return Found;
  }
  bool boolean(const json::Value *V) {
    std::optional<bool> B = V ? V->getAsBoolean() : std::nullopt;
    Ok = Ok && B;
    return B.value_or(false);
  }
  std::optional<int64_t> integer(const json::Value *V, int64_t Low,
                                 int64_t High) {
    std::optional<int64_t> I = V ? V->getAsInteger() : std::nullopt;
    if (!I || *I < Low || *I > High) {
      Ok = false;
      return std::nullopt;
    }
    return I;
  }

  const ParmVarDecl *parameter(const json::Value *V) {
    std::optional<int64_t> Index =
        integer(V, 0, static_cast<int64_t>(Declaration->getNumParams()) - 1);
    return Index ? Declaration->getParamDecl(*Index) : nullptr;
  }

  Origin origin(const json::Value *V) {
    const json::Object *O = object(V);
    if (!O)
      return {Origin::Kind::Factory, {}, "", "", ""};
    std::optional<int64_t> Kind =
        integer(O->get("k"), 0, static_cast<int>(Origin::Kind::LastKind));
    return {static_cast<Origin::Kind>(Kind.value_or(0)), location(O->get("l")),
            string(O->get("s")), string(O->get("d")), string(O->get("w"))};
  }

  Placement placement(const json::Value *V) {
    const json::Object *O = object(V);
    if (!O)
      return Placement::unknown();
    Placement P;
    P.State = static_cast<Placement::Knowledge>(
        integer(O->get("s"), 0, static_cast<int>(Placement::Knowledge::Unknown))
            .value_or(0));
    std::optional<DeviceSet> Devices;
    if (boolean(O->get("a")))
      Devices = DeviceSet::anyDevice();
    for (const json::Value &Entry : array(O->get("d"))) {
      const json::Array *D = Entry.getAsArray();
      std::optional<llvm::StringRef> Type =
          D && D->size() == 2 ? (*D)[0].getAsString() : std::nullopt;
      std::optional<int64_t> Index =
          D && D->size() == 2 ? (*D)[1].getAsInteger() : std::nullopt;
      if (!Type || !Index) {
        Ok = false;
        continue;
      }
      DeviceSet One = DeviceSet::of({Type->str(), static_cast<int>(*Index)});
      Devices = Devices ? Devices->join(One) : One;
    }
    if (Devices)
      P.Devices = *Devices;
    const CXXRecordDecl *Class = classOf(Declaration);
    if (O->get("p")) {
      P.DeviceVar = parameter(O->get("p"));
    } else if (O->get("c")) {
      P.DeviceVar = Class;
      Ok = Ok && Class;
    } else if (std::optional<llvm::StringRef> Name = O->getString("f")) {
      // A device member of the class: unnamed if this unit's class has no
      // such field (then it is only where its devices say).
      if (Class)
        for (const FieldDecl *Field : Class->fields())
          if (Field->getName() == *Name)
            P.DeviceVar = Field;
    }
    return P;
  }

  const FunctionDecl *Declaration;
  SourceManager &Sources;
};

/// The JSON object that Text is; none for any other text.
std::optional<json::Object> parseObject(llvm::StringRef Text) {
  llvm::Expected<json::Value> Parsed = json::parse(Text);
  if (!Parsed) {
    llvm::consumeError(Parsed.takeError());
    return std::nullopt;
  }
  if (json::Object *Object = Parsed->getAsObject())
    return std::move(*Object);
  return std::nullopt;
}

} // namespace

std::string writeSummary(const FunctionSummary &Summary,
                         const FunctionDecl *Definition,
                         const SourceManager &Sources) {
  std::string Text;
  llvm::raw_string_ostream Out(Text);
  Out << Writer(Definition, Sources).summary(Summary);
  return Text;
}

std::optional<FunctionSummary>
readSummary(llvm::StringRef Text, const FunctionDecl *Declaration,
            SourceManager &Sources, std::vector<std::string> &OpenedForNotes) {
  std::optional<json::Object> Object = parseObject(Text);
  if (!Object)
    return std::nullopt;
  Reader Read(Declaration, Sources);
  FunctionSummary Summary = Read.summary(*Object);
  llvm::append_range(OpenedForNotes, Read.OpenedForNotes);
  if (!Read.Ok)
    return std::nullopt;
  return Summary;
}

std::string writeModuleParameters(bool HoldsParameters,
                                  const CXXConstructorDecl *Constructor,
                                  const SourceManager &Sources) {
  std::string Text;
  llvm::raw_string_ostream Out(Text);
  Out << json::Value(json::Object{
      {"params", HoldsParameters},
      {"ctor",
       Writer(Constructor, Sources).location(Constructor->getLocation())}});
  return Text;
}

std::optional<ModuleParametersFact>
readModuleParameters(llvm::StringRef Text, SourceManager &Sources,
                     std::vector<std::string> &OpenedForNotes) {
  std::optional<json::Object> Object = parseObject(Text);
  std::optional<bool> Holds =
      Object ? Object->getBoolean("params") : std::nullopt;
  if (!Holds)
    return std::nullopt;
  Reader Read(nullptr, Sources);
  ModuleParametersFact Fact;
  Fact.HoldsParameters = *Holds;
  Fact.Constructor = Read.location(Object->get("ctor"));
  llvm::append_range(OpenedForNotes, Read.OpenedForNotes);
  return Fact;
}

/// What a calls fact says when the unit's calls of the function are not all
/// seen.
static constexpr llvm::StringLiteral EscapingCalls = "{\"escapes\":true}";

std::string writeCallsFact(const PassedArguments &Parameters,
                           const FunctionDecl *Callee,
                           const SourceManager &Sources) {
  Writer Write(Callee, Sources);
  json::Array Written;
  for (const std::optional<PassedArgument> &Passed : Parameters)
    Written.push_back(
        Passed ? json::Value(json::Object{{"v", Write.value(Passed->Value)},
                                          {"at", Write.location(Passed->At)},
                                          {"by", Passed->Caller}})
               : json::Value(nullptr));
  std::string Text;
  llvm::raw_string_ostream Out(Text);
  Out << json::Value(json::Object{{"params", std::move(Written)}});
  return Text;
}

std::string writeEscapingCallsFact() { return EscapingCalls.str(); }

std::optional<PassedArguments>
readCallsFact(llvm::StringRef Text, const FunctionDecl *Definition,
              SourceManager &Sources,
              std::vector<std::string> &OpenedForNotes) {
  std::optional<json::Object> Object = parseObject(Text);
  const json::Array *Written = Object ? Object->getArray("params") : nullptr;
  // The same function has as many parameters in every unit.
  if (!Written || Written->size() != Definition->getNumParams())
    return std::nullopt;
  Reader Read(Definition, Sources);
  PassedArguments Parameters;
  for (const json::Value &Entry : *Written) {
    const json::Object *Fields = Entry.getAsObject();
    if (!Fields) {
      Parameters.push_back(std::nullopt);
      continue;
    }
    PassedArgument Passed;
    Passed.Value = Read.value(Fields->get("v"));
    Passed.At = Read.location(Fields->get("at"));
    Passed.Caller = Read.string(Fields->get("by"));
    Parameters.push_back(std::move(Passed));
  }
  llvm::append_range(OpenedForNotes, Read.OpenedForNotes);
  if (!Read.Ok)
    return std::nullopt;
  return Parameters;
}

} // namespace torchtidy
