//===--- ProjectFacts.cpp - Facts from a project's other files ------------===//

#include "Analysis/ProjectFacts.h"
#include "Analysis/AnalysisContext.h"
#include "Analysis/SummaryData.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Mangle.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

#include <memory>

using namespace clang;

namespace torchtidy {

void ProjectFacts::provide(
    size_t Unit, const std::map<std::string, std::string> &Summaries) {
  std::lock_guard<std::mutex> Guard(Lock);
  std::vector<std::string> &Names = NamesOf[Unit];
  for (const std::string &Name : Names)
    Providers[Name].erase(Unit);
  Names.clear();
  for (const auto &[Name, Summary] : Summaries) {
    Providers[Name][Unit] = Summary;
    Names.push_back(Name);
  }
}

std::optional<std::string> ProjectFacts::summaryOf(llvm::StringRef Name) const {
  std::lock_guard<std::mutex> Guard(Lock);
  auto It = Providers.find(Name);
  if (It == Providers.end() || It->second.empty())
    return std::nullopt;
  const std::string &First = It->second.begin()->second;
  for (const auto &[Unit, Summary] : It->second)
    if (Summary != First)
      return std::nullopt;
  return First;
}

bool ProjectFacts::changedSince(const UnitFacts &Unit) const {
  for (const auto &[Name, Digest] : Unit.Used)
    if (factDigest(summaryOf(Name)) != Digest)
      return true;
  return false;
}

std::string factDigest(const std::optional<std::string> &Summary) {
  if (!Summary)
    return "";
  return llvm::utohexstr(llvm::xxh3_64bits(*Summary), /*LowerCase=*/true, 16);
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

namespace {
/// One translation unit at a time per thread, as in AnalysisContext.cpp.
struct ThreadState {
  const ProjectFacts *Facts = nullptr;
  std::map<std::string, std::string> Used;
  std::vector<std::string> OpenedForNotes;
  using Key = std::pair<const ASTContext *, const FunctionDecl *>;
  /// Null: the project has no (readable) summary.
  llvm::DenseMap<Key, std::unique_ptr<FunctionSummary>> Read;
};
ThreadState &state() {
  thread_local ThreadState State;
  return State;
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

void useProjectFacts(const ProjectFacts *Facts) {
  state().Facts = Facts;
  state().Used.clear();
  state().OpenedForNotes.clear();
}

const FunctionSummary *projectSummaryOf(const FunctionDecl *Declaration,
                                        ASTContext &Ctx) {
  ThreadState &State = state();
  if (!State.Facts)
    return nullptr;
  Declaration = Declaration->getCanonicalDecl();
  auto Known = State.Read.find({&Ctx, Declaration});
  if (Known != State.Read.end())
    return Known->second.get();
  std::unique_ptr<FunctionSummary> &Slot = State.Read[{&Ctx, Declaration}];
  std::optional<std::string> Name = projectName(Declaration);
  if (!Name)
    return nullptr;
  std::optional<std::string> Text = State.Facts->summaryOf(*Name);
  State.Used[*Name] = factDigest(Text);
  if (!Text)
    return nullptr;
  if (std::optional<FunctionSummary> Summary = readSummary(
          *Text, Declaration, Ctx.getSourceManager(), State.OpenedForNotes))
    Slot = std::make_unique<FunctionSummary>(std::move(*Summary));
  return Slot.get();
}

std::map<std::string, std::string> providedSummaries(ASTContext &Ctx) {
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
    std::optional<std::string> Name = projectName(F);
    if (!Name)
      continue;
    if (const FunctionSummary *Summary = deviceFlowSummaryOf(F, Ctx))
      Provided[*Name] = writeSummary(*Summary, F, Sources);
  }
  return Provided;
}

std::map<std::string, std::string> takeUsedFacts() {
  return std::exchange(state().Used, {});
}

std::vector<std::string> takeFilesOpenedForNotes() {
  return std::exchange(state().OpenedForNotes, {});
}

void forgetProjectSummaries() { state().Read.clear(); }

} // namespace torchtidy
