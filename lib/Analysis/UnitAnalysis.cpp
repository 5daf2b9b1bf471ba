//===--- UnitAnalysis.cpp - What the analysis knows of one unit -----------===//

#include "Analysis/UnitAnalysis.h"
#include "Analysis/ClassFields.h"
#include "Analysis/ModuleMembers.h"
#include "Analysis/ProjectFacts.h"
#include "Analysis/SummaryData.h"
#include "Model/Modules.h"
#include "Model/TorchApi.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"

#include <cassert>
#include <mutex>

using namespace clang;

namespace torchtidy {
namespace {

/// Every live unit's state, by its ASTContext. Units are analysed on
/// several threads at once (torchtidy -j); each unit on one.
struct UnitRegistry {
  std::mutex Lock;
  llvm::DenseMap<const ASTContext *, std::unique_ptr<UnitAnalysis>> Units;
};
UnitRegistry &registry() {
  static UnitRegistry Registry;
  return Registry;
}

/// Called by ~ASTContext, before its memory can be reused.
void forgetUnit(void *Ctx) {
  std::unique_ptr<UnitAnalysis> Gone;
  {
    UnitRegistry &Registry = registry();
    std::lock_guard<std::mutex> Guard(Registry.Lock);
    auto It = Registry.Units.find(static_cast<const ASTContext *>(Ctx));
    if (It == Registry.Units.end())
      return;
    Gone = std::move(It->second);
    Registry.Units.erase(It);
  }
  // Destroyed outside the lock: other threads' units go on meanwhile.
}

const ProjectFacts *&factsForNewUnits() {
  thread_local const ProjectFacts *Facts = nullptr;
  return Facts;
}

/// The function definitions at D, or in it when it is a namespace, an
/// `extern "C"` block or the translation unit: out-of-line methods are
/// lexically there.
void collectDefinitions(const Decl *D,
                        std::vector<const FunctionDecl *> &Found) {
  if (const auto *F = dyn_cast<FunctionDecl>(D)) {
    if (F->doesThisDeclarationHaveABody())
      Found.push_back(F);
  } else if (isa<NamespaceDecl>(D) || isa<LinkageSpecDecl>(D) ||
             isa<TranslationUnitDecl>(D)) {
    for (const Decl *Inner : cast<DeclContext>(D)->decls())
      collectDefinitions(Inner, Found);
  }
}

} // namespace

UnitAnalysis &UnitAnalysis::of(const ASTContext &Ctx) {
  UnitRegistry &Registry = registry();
  std::lock_guard<std::mutex> Guard(Registry.Lock);
  std::unique_ptr<UnitAnalysis> &Slot = Registry.Units[&Ctx];
  if (!Slot) {
    // The analysis changes nothing in the AST; it needs the context only to
    // hand it on to the code that reads the AST.
    auto &Mutable = const_cast<ASTContext &>(Ctx);
    Slot.reset(new UnitAnalysis(Mutable, factsForNewUnits()));
    Ctx.AddDeallocation(forgetUnit, &Mutable);
  }
  return *Slot;
}

size_t UnitAnalysis::liveUnitCount() {
  UnitRegistry &Registry = registry();
  std::lock_guard<std::mutex> Guard(Registry.Lock);
  return Registry.Units.size();
}

UnitAnalysis::UnitAnalysis(ASTContext &Ctx, const ProjectFacts *Facts)
    : Ctx(Ctx), Facts(Facts) {}

UnitAnalysis::~UnitAnalysis() = default;

const DeviceFlowResult &
UnitAnalysis::deviceFlowOf(const FunctionDecl *Function) {
  assert(&Function->getASTContext() == &Ctx && "a function of another unit");
  auto Found = Flows.find(Function);
  if (Found != Flows.end()) {
    // Callers' contexts are asked only up acyclic chains (CallSiteIndex), so
    // no function's flow is asked for while it is being computed. Were one,
    // it would have no result yet: no finding, no arguments passed.
    assert(Found->second && "a device flow asked for while computing it");
    static const DeviceFlowResult NotYetComputed;
    return Found->second ? *Found->second : NotYetComputed;
  }
  Flows[Function] = nullptr;
  auto Flow =
      std::make_unique<DeviceFlowResult>(analyzeDeviceFlow(Function, Ctx));
  // The map may have grown while the callers were analysed: look the slot
  // up again.
  std::unique_ptr<DeviceFlowResult> &Slot = Flows[Function];
  Slot = std::move(Flow);
  return *Slot;
}

const CallSiteIndex &UnitAnalysis::callSites() {
  if (!CallSites) {
    CallSites = std::make_unique<CallSiteIndex>(Ctx);
    CallSites->setCallsElsewhereKnown(
        [this](const FunctionDecl *F) { return projectCallsOf(F) != nullptr; });
  }
  return *CallSites;
}

bool UnitAnalysis::mayLeaveTrainingMode() {
  return callSites().mayLeaveTrainingMode();
}

bool UnitAnalysis::runsAFixedNumberOfTimes(const FunctionDecl *Function) {
  return callSites().runsAFixedNumberOfTimes(Function);
}

ModeSwitch UnitAnalysis::modeOnEntry(const FunctionDecl *Function) {
  return callSites().modeOnEntry(Function);
}

const CallSite *UnitAnalysis::loopCallOf(const FunctionDecl *Function) {
  return callSites().loopCallOf(Function);
}

/// Field by field, what two calls' objects hold; a field one of them does
/// not know is left out (unknown).
static ObjectFieldValues joinObjectFields(const ObjectFieldValues &A,
                                          const ObjectFieldValues &B) {
  ObjectFieldValues Joined;
  for (const auto &[Field, Value] : A)
    for (const auto &[OtherField, Other] : B)
      if (OtherField == Field)
        Joined.push_back({Field, Value.join(Other)});
  return Joined;
}

/// Whether a parameter takes the placement its callers' arguments have: a
/// tensor, a container of tensors, a module, module options, or a device
/// (not tensor options, which say more than where).
static bool takesCallersPlacement(const ParmVarDecl *Parm) {
  TorchValueKind Kind = classifyType(Parm->getType());
  return Kind == TorchValueKind::Tensor || Kind == TorchValueKind::TensorList ||
         Kind == TorchValueKind::Module ||
         Kind == TorchValueKind::ModuleOptions ||
         (Kind == TorchValueKind::DeviceSpec &&
          !isTensorOptionsType(Parm->getType()));
}

/// A caller's argument for Parm, as the function sees it: a known placement
/// comes from the parameter, and the call that passed it leads its history.
static AbstractValue passedByCaller(AbstractValue Arg, const ParmVarDecl *Parm,
                                    llvm::StringRef Subject, SourceLocation At,
                                    llvm::StringRef CallerName) {
  if (Arg.Where.State == Placement::Knowledge::Unset)
    return AbstractValue::unknown();
  if (Arg.Where.isKnown()) {
    Arg.Where.FromParameter = Parm;
    Arg.addOrigin({Origin::Kind::PassedByCaller, At, Subject.str(),
                   CallerName.str(), Arg.Where.describe()});
  }
  return Arg;
}

/// How a caller is named in a note: "a lambda" for a lambda's body.
static std::string callerName(const FunctionDecl *Caller) {
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Caller);
      Method && Method->getParent()->isLambda())
    return "a lambda";
  return Caller->getNameAsString();
}

const CallerContext *
UnitAnalysis::callerContextOf(const FunctionDecl *Function) {
  assert(&Function->getASTContext() == &Ctx && "a function of another unit");
  callSites();
  const FunctionDecl *Key = Function->getCanonicalDecl();
  if (auto Known = CallerContexts.find(Key); Known != CallerContexts.end())
    return Known->second.get();
  if (!CallSites->hasContext(Key)) {
    CallerContexts[Key] = nullptr;
    return nullptr;
  }
  auto Context = std::make_unique<CallerContext>();
  const FunctionDecl *Definition = Function->getDefinition();
  unsigned NumParams = Definition ? Definition->getNumParams() : 0;
  Context->Parameters.assign(NumParams, AbstractValue::unknown());
  Context->ObjectFields.assign(NumParams, {});
  std::vector<bool> Reached(NumParams, false);
  // A method of a plain class: its object's fields take the callers'.
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Definition);
  bool TakesObjectFields =
      Method && Method->isInstance() && isPlainUserClass(Method->getParent());
  bool ObjectReached = false;
  bool EveryCallSeen = true;
  for (const CallSite &Site : *CallSites->contextCallsOf(Key)) {
    const DeviceFlowResult &Flow = deviceFlowOf(Site.Caller);
    auto Passed = Flow.ArgumentsPassed.find(Site.Call);
    // A call the caller's analysis never reached (dead code, a gave-up
    // caller, an argument's default): what it passes is not known.
    if (Passed == Flow.ArgumentsPassed.end()) {
      EveryCallSeen = false;
      break;
    }
    unsigned First = firstParameterArgument(Site.Call);
    std::string CallerName = callerName(Site.Caller);
    if (TakesObjectFields) {
      ObjectFieldValues Held;
      if (auto Object = Flow.CallObjectFieldsPassed.find(Site.Call);
          Object != Flow.CallObjectFieldsPassed.end())
        Held = Object->second;
      const Expr *Object = callObject(Site.Call);
      std::string ObjectName = writtenText(Object->getSourceRange(), Ctx);
      for (auto &[Field, Value] : Held)
        if (Value.Where.isKnown()) {
          // The caller's parameters are not this method's to spell.
          Value.Where.FromParameter = nullptr;
          Value.addOrigin({Origin::Kind::PassedByCaller, Object->getBeginLoc(),
                           (ObjectName.empty() ? "" : ObjectName + ".") +
                               Field->getNameAsString(),
                           CallerName, Value.Where.describe()});
        }
      Context->ThisObjectFields =
          ObjectReached ? joinObjectFields(Context->ThisObjectFields, Held)
                        : std::move(Held);
      ObjectReached = true;
    }
    auto Objects = Flow.ObjectFieldsPassed.find(Site.Call);
    for (unsigned I = 0; I < NumParams; ++I) {
      const ParmVarDecl *Parm = Definition->getParamDecl(I);
      if (plainUserClassOf(Parm->getType().getNonReferenceType())) {
        ObjectFieldValues Held;
        if (Objects != Flow.ObjectFieldsPassed.end() &&
            I + First < Objects->second.size())
          Held = Objects->second[I + First];
        for (auto &[Field, Value] : Held)
          if (Value.Where.isKnown()) {
            Value.Where.FromParameter = Parm;
            Value.addOrigin(
                {Origin::Kind::PassedByCaller,
                 Site.Call->getArg(I + First)->getBeginLoc(),
                 Parm->getNameAsString() + "." + Field->getNameAsString(),
                 CallerName, Value.Where.describe()});
          }
        Context->ObjectFields[I] =
            Reached[I] ? joinObjectFields(Context->ObjectFields[I], Held)
                       : std::move(Held);
        Reached[I] = true;
        continue;
      }
      if (!takesCallersPlacement(Parm) || I + First >= Passed->second.size())
        continue;
      AbstractValue Arg = passedByCaller(
          Passed->second[I + First], Parm, Parm->getNameAsString(),
          Site.Call->getArg(I + First)->getBeginLoc(), CallerName);
      Context->Parameters[I] =
          Reached[I] ? Context->Parameters[I].join(Arg) : Arg;
      Reached[I] = true;
    }
  }
  // What the project's other units pass, where the calls here are not all
  // the calls of the function.
  if (EveryCallSeen && !CallSites->allCallsOf(Key))
    for (const PassedArguments &Unit : *projectCallsOf(Key)) {
      // Nor what their objects hold.
      Context->ThisObjectFields.clear();
      for (unsigned I = 0; I < NumParams; ++I) {
        const ParmVarDecl *Parm = Definition->getParamDecl(I);
        // What the other units' objects hold is not carried.
        if (plainUserClassOf(Parm->getType().getNonReferenceType())) {
          Context->ObjectFields[I].clear();
          continue;
        }
        if (!takesCallersPlacement(Parm))
          continue;
        AbstractValue Arg =
            Unit[I]
                ? passedByCaller(Unit[I]->Value, Parm, Parm->getNameAsString(),
                                 Unit[I]->At, Unit[I]->Caller)
                : AbstractValue::unknown();
        Context->Parameters[I] =
            Reached[I] ? Context->Parameters[I].join(Arg) : Arg;
        Reached[I] = true;
      }
    }
  if (!EveryCallSeen)
    Context.reset();
  std::unique_ptr<CallerContext> &Slot = CallerContexts[Key];
  Slot = std::move(Context);
  return Slot.get();
}

const FunctionSummary *
UnitAnalysis::summaryOf(const FunctionDecl *Definition) {
  assert(&Definition->getASTContext() == &Ctx && "a function of another unit");
  auto Found = Summaries.find(Definition);
  if (Found != Summaries.end())
    return Found->second.get();
  if (SummaryNesting >= MaxSummaryNesting)
    return nullptr;
  Summaries[Definition] = nullptr; // In progress: recursion sees null.
  ++SummaryNesting;
  auto Summary =
      std::make_unique<FunctionSummary>(summarizeDeviceFlow(Definition, Ctx));
  --SummaryNesting;
  // The map may have grown while the callee's own callees were summarised:
  // look the slot up again.
  std::unique_ptr<FunctionSummary> &Slot = Summaries[Definition];
  Slot = std::move(Summary);
  return Slot.get();
}

const ModuleMembers *
UnitAnalysis::moduleMembersOf(const CXXRecordDecl *Class) {
  if (!Class || !isModuleClass(Class) || Class->isDependentContext())
    return nullptr;
  assert(&Class->getASTContext() == &Ctx && "a class of another unit");
  std::unique_ptr<ModuleMembers> &Slot = Members[Class];
  if (!Slot)
    Slot = std::make_unique<ModuleMembers>(collectModuleMembers(Class));
  return Slot.get();
}

const MovedFields &UnitAnalysis::movedFieldsOf(const CXXRecordDecl *Class) {
  assert(&Class->getASTContext() == &Ctx && "a class of another unit");
  auto [It, Inserted] = Owners.try_emplace(Class);
  // Modules move what they registered (ModuleMembers.h), whatever an
  // override of `to` says; templates are read through their instantiations.
  if (Inserted && !isModuleClass(Class) && !Class->isDependentContext() &&
      Class->hasDefinition())
    if (std::optional<MovedFields> Moved =
            collectMovedFields(Class->getDefinition()))
      It->second = std::move(*Moved);
  return It->second;
}

std::optional<AbstractValue>
UnitAnalysis::classFieldValueOf(const FieldDecl *Field) {
  assert(&Field->getASTContext() == &Ctx && "a field of another unit");
  auto [It, Inserted] = ClassFieldValues.try_emplace(Field);
  if (!Inserted)
    return It->second;
  std::optional<AbstractValue> Value = computeClassFieldValue(Field);
  ClassFieldValues[Field] = Value; // The map may have grown meanwhile.
  return Value;
}

std::optional<AbstractValue>
UnitAnalysis::memberObjectFieldValueOf(const FieldDecl *Object,
                                       const FieldDecl *Field) {
  assert(&Object->getASTContext() == &Ctx && "a field of another unit");
  auto [It, Inserted] = MemberObjectFieldValues.try_emplace({Object, Field});
  if (!Inserted)
    return It->second;
  std::optional<AbstractValue> Value =
      computeMemberObjectFieldValue(Object, Field);
  // The map may have grown meanwhile.
  MemberObjectFieldValues[{Object, Field}] = Value;
  return Value;
}

llvm::StringRef UnitAnalysis::unitName() {
  if (!Name) {
    const SourceManager &Sources = Ctx.getSourceManager();
    OptionalFileEntryRef Main =
        Sources.getFileEntryRefForID(Sources.getMainFileID());
    Name = Main ? projectUnitName(
                      Sources.getFileManager().getCanonicalName(*Main))
                : "";
  }
  return *Name;
}

/// Records the digest of the fact a unit read. Should the unit read a name
/// again and find another fact there, the first one stays: what the unit
/// concluded may rest on either, and a record that differs from the
/// project's has the unit linted again.
void UnitAnalysis::recordUsed(llvm::StringRef FactName, std::string Digest) {
  Used.try_emplace(FactName.str(), std::move(Digest));
}

const FunctionSummary *
UnitAnalysis::projectSummaryOf(const FunctionDecl *Declaration) {
  if (!Facts)
    return nullptr;
  Declaration = Declaration->getCanonicalDecl();
  assert(&Declaration->getASTContext() == &Ctx && "a function of another unit");
  auto Known = ProjectSummaries.find(Declaration);
  if (Known != ProjectSummaries.end())
    return Known->second.get();
  std::unique_ptr<FunctionSummary> &Slot = ProjectSummaries[Declaration];
  std::optional<std::string> FactName = projectName(Declaration);
  if (!FactName)
    return nullptr;
  std::optional<std::string> Text = Facts->summaryOf(*FactName, unitName());
  recordUsed(*FactName, factDigest(Text));
  if (!Text)
    return nullptr;
  if (std::optional<FunctionSummary> Summary = readSummary(
          *Text, Declaration, Ctx.getSourceManager(), OpenedForNotes))
    Slot = std::make_unique<FunctionSummary>(std::move(*Summary));
  return Slot.get();
}

const std::vector<PassedArguments> *
UnitAnalysis::projectCallsOf(const FunctionDecl *Function) {
  if (!Facts)
    return nullptr;
  Function = Function->getCanonicalDecl();
  auto [Known, New] = ProjectCalls.try_emplace(Function);
  if (!New)
    return Known->second ? &*Known->second : nullptr;
  // Only the unit that defines the function joins what the others pass it.
  const FunctionDecl *Definition = Function->getDefinition();
  if (!Definition || !isCalledOnlyByName(Function))
    return nullptr;
  std::optional<std::string> Name = projectName(Function);
  if (!Name)
    return nullptr;
  // Two units that define it (two programs in one database): which one a
  // call runs is not known, nor which calls reach this one.
  if (llvm::any_of(Facts->providersOf(*Name),
                   [&](const std::string &Unit) { return Unit != unitName(); }))
    return nullptr;
  std::string FactName = std::string(CallsFactPrefix) + *Name;
  std::optional<std::vector<std::string>> CallFacts = Facts->callsOf(FactName);
  recordUsed(FactName, factDigest(CallFacts));
  if (!CallFacts)
    return nullptr;
  std::vector<PassedArguments> Calls;
  for (const std::string &Fact : *CallFacts) {
    std::optional<PassedArguments> Passed =
        readCallsFact(Fact, Definition, Ctx.getSourceManager(), OpenedForNotes);
    // A unit whose calls are not all seen: neither are the program's.
    if (!Passed)
      return nullptr;
    Calls.push_back(std::move(*Passed));
  }
  std::optional<std::vector<PassedArguments>> &Slot =
      ProjectCalls[Function]; // The map may have grown meanwhile.
  Slot = std::move(Calls);
  return &*Slot;
}

/// A caller's argument as the callee's unit can read it (writeCallsFact): a
/// device named by the caller's own variable is named by the callee's
/// parameter when the call passes that variable there, and by nothing
/// otherwise.
static AbstractValue asPassedTo(AbstractValue Arg, const CallExpr *Call,
                                const FunctionDecl *Callee) {
  Arg.Where.FromParameter = nullptr;
  const NamedDecl *Var = Arg.Where.DeviceVar;
  Arg.Where.DeviceVar = nullptr;
  unsigned First = firstParameterArgument(Call);
  for (unsigned I = First; Var && I < Call->getNumArgs(); ++I) {
    const auto *Ref =
        dyn_cast<DeclRefExpr>(Call->getArg(I)->IgnoreParenImpCasts());
    if (Ref && Ref->getDecl() == Var && I - First < Callee->getNumParams()) {
      Arg.Where.DeviceVar = Callee->getParamDecl(I - First);
      break;
    }
  }
  for (AbstractValue &Element : Arg.Elements)
    Element = asPassedTo(std::move(Element), Call, Callee);
  return Arg;
}

std::string UnitAnalysis::callsFactOf(const FunctionDecl *Callee) {
  const std::vector<CallSite> *Sites = callSites().callsHereOf(Callee);
  if (!Sites)
    return writeEscapingCallsFact();
  unsigned NumParams = Callee->getNumParams();
  PassedArguments Parameters(NumParams);
  std::vector<bool> Reached(NumParams, false);
  for (const CallSite &Site : *Sites) {
    const DeviceFlowResult &Flow = deviceFlowOf(Site.Caller);
    auto Passed = Flow.ArgumentsPassed.find(Site.Call);
    unsigned First = firstParameterArgument(Site.Call);
    for (unsigned I = 0; I < NumParams; ++I) {
      // A call the caller's analysis never reached passes what is unknown.
      bool Known = Passed != Flow.ArgumentsPassed.end() &&
                   I + First < Passed->second.size() &&
                   takesCallersPlacement(Callee->getParamDecl(I));
      AbstractValue Arg =
          Known ? asPassedTo(Passed->second[I + First], Site.Call, Callee)
                : AbstractValue::unknown();
      if (Arg.Where.State == Placement::Knowledge::Unset)
        Arg = AbstractValue::unknown();
      if (!Reached[I])
        Parameters[I] =
            PassedArgument{Arg,
                           I + First < Site.Call->getNumArgs()
                               ? Site.Call->getArg(I + First)->getBeginLoc()
                               : Site.Call->getBeginLoc(),
                           callerName(Site.Caller)};
      else if (Parameters[I])
        Parameters[I]->Value = Parameters[I]->Value.join(Arg);
      Reached[I] = true;
      if (Parameters[I] && !Parameters[I]->Value.Where.isKnown())
        Parameters[I].reset();
    }
  }
  return writeCallsFact(Parameters, Callee, Ctx.getSourceManager());
}

std::optional<ModuleParametersFact>
UnitAnalysis::moduleParametersOf(const CXXRecordDecl *ModuleClass) {
  if (std::optional<bool> Seen = moduleHoldsParameters(ModuleClass))
    return ModuleParametersFact{*Seen, {}};
  if (!Facts || !ModuleClass)
    return std::nullopt;
  ModuleClass = ModuleClass->getCanonicalDecl();
  assert(&ModuleClass->getASTContext() == &Ctx && "a class of another unit");
  auto Known = ProjectClasses.find(ModuleClass);
  if (Known != ProjectClasses.end())
    return Known->second;
  std::optional<ModuleParametersFact> &Slot = ProjectClasses[ModuleClass];
  std::optional<std::string> FactName = moduleFactName(ModuleClass);
  if (!FactName)
    return std::nullopt;
  std::optional<std::string> Text = Facts->summaryOf(*FactName, unitName());
  recordUsed(*FactName, factDigest(Text));
  if (Text)
    Slot = readModuleParameters(*Text, Ctx.getSourceManager(), OpenedForNotes);
  return Slot;
}

std::map<std::string, std::string> UnitAnalysis::providedFacts() {
  const SourceManager &Sources = Ctx.getSourceManager();
  // The traversal scope is the user's code when a front-end limited it
  // (UserCodeScope.h): the declarations of a precompiled LibTorch are not
  // loaded just to be skipped.
  std::vector<const FunctionDecl *> Definitions;
  for (const Decl *D : Ctx.getTraversalScope())
    collectDefinitions(D, Definitions);
  std::map<std::string, std::string> Provided;
  for (const FunctionDecl *F : Definitions) {
    if (!Sources.isInMainFile(Sources.getExpansionLoc(F->getLocation())))
      continue;
    std::optional<std::string> FactName = projectName(F);
    if (!FactName)
      continue;
    if (const FunctionSummary *Summary = summaryOf(F))
      Provided[*FactName] = writeSummary(*Summary, F, Sources);
  }
  // A module class whose constructor is here is judged here; a unit that
  // only includes its header cannot.
  for (const FunctionDecl *F : Definitions) {
    const auto *Constructor = dyn_cast<CXXConstructorDecl>(F);
    if (!Constructor || !isModuleClass(Constructor->getParent()) ||
        !Sources.isInMainFile(Sources.getExpansionLoc(F->getLocation())))
      continue;
    std::optional<std::string> FactName =
        moduleFactName(Constructor->getParent());
    if (!FactName || Provided.count(*FactName))
      continue;
    if (std::optional<bool> Holds =
            moduleHoldsParameters(Constructor->getParent()))
      Provided[*FactName] = writeModuleParameters(*Holds, Constructor, Sources);
  }
  // What this unit's calls pass the functions other units define that take
  // a tensor, a module or a device.
  for (const FunctionDecl *Callee : callSites().calledOrReferenced()) {
    if (Callee->isDefined() || !isCalledOnlyByName(Callee) ||
        Sources.isInSystemHeader(
            Sources.getExpansionLoc(Callee->getLocation())) ||
        llvm::none_of(Callee->parameters(), takesCallersPlacement))
      continue;
    if (std::optional<std::string> Name = projectName(Callee))
      Provided[std::string(CallsFactPrefix) + *Name] = callsFactOf(Callee);
  }
  return Provided;
}

std::map<std::string, std::string> UnitAnalysis::takeUsedFacts() {
  return std::exchange(Used, {});
}

std::vector<std::string> UnitAnalysis::takeFilesOpenedForNotes() {
  return std::exchange(OpenedForNotes, {});
}

void useProjectFacts(const ProjectFacts *Facts) { factsForNewUnits() = Facts; }

const DeviceFlowResult &deviceFlowOf(const FunctionDecl *Function) {
  return UnitAnalysis::of(Function->getASTContext()).deviceFlowOf(Function);
}

const FunctionSummary *deviceFlowSummaryOf(const FunctionDecl *Definition) {
  return UnitAnalysis::of(Definition->getASTContext()).summaryOf(Definition);
}

const FunctionSummary *projectSummaryOf(const FunctionDecl *Declaration) {
  return UnitAnalysis::of(Declaration->getASTContext())
      .projectSummaryOf(Declaration);
}

/// What Field's unit shows of it as a member of its module class, or null
/// when it is none (or the class cannot be judged).
static const ModuleMember *moduleMemberOf(const FieldDecl *Field) {
  const auto *Class = dyn_cast_or_null<CXXRecordDecl>(Field->getParent());
  if (!Class)
    return nullptr;
  const ModuleMembers *Members =
      UnitAnalysis::of(Field->getASTContext()).moduleMembersOf(Class);
  if (!Members)
    return nullptr;
  auto It = Members->Members.find(Field);
  return It == Members->Members.end() ? nullptr : &It->second;
}

bool isUnregisteredModuleMember(const FieldDecl *Field) {
  const ModuleMember *Member = moduleMemberOf(Field);
  return Member && !Member->Registered;
}

bool isRegisteredModuleMember(const FieldDecl *Field) {
  const ModuleMember *Member = moduleMemberOf(Field);
  return Member && Member->Registered;
}

bool movesWithItsObject(const FieldDecl *Field) {
  const auto *Class = dyn_cast_or_null<CXXRecordDecl>(Field->getParent());
  return Class &&
         UnitAnalysis::of(Field->getASTContext()).movedFieldsOf(Class).contains(
             Field);
}

bool isDeviceOwningClass(const CXXRecordDecl *Class) {
  return Class &&
         !UnitAnalysis::of(Class->getASTContext()).movedFieldsOf(Class).empty();
}

} // namespace torchtidy
