//===--- CallerContext.cpp - What a function's callers pass it ------------===//

#include "Analysis/CallerContext.h"
#include "Analysis/FunctionFacts.h"
#include "Model/Modules.h"
#include "Model/TorchTypes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace torchtidy {

bool isCalledOnlyByName(const FunctionDecl *F) {
  if (F->isMain() || F->isVariadic() || F->isDependentContext() ||
      F->getTemplatedKind() != FunctionDecl::TK_NonTemplate ||
      F->isInvalidDecl())
    return false;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(F))
    return !isa<CXXConstructorDecl, CXXDestructorDecl, CXXConversionDecl>(
               Method) &&
           !Method->isVirtual() && !Method->getParent()->isLambda() &&
           !isModuleClass(Method->getParent());
  return true;
}

namespace {

const FunctionDecl *canonical(const FunctionDecl *F) {
  return F ? F->getCanonicalDecl() : nullptr;
}

/// Whether the program can call F only where this unit's main file shows.
bool isCalledOnlyInMainFile(const FunctionDecl *F, const SourceManager &SM) {
  if (!isCalledOnlyByName(F))
    return false;
  // Another unit that includes the class's header can call the method.
  if (const auto *Method = dyn_cast<CXXMethodDecl>(F);
      Method &&
      !SM.isInMainFile(SM.getExpansionLoc(Method->getParent()->getLocation())))
    return false;
  for (const FunctionDecl *Redecl : F->redecls())
    if (!SM.isInMainFile(SM.getExpansionLoc(Redecl->getLocation())))
      return false;
  return true;
}

/// Collects the calls and the other references to functions in the main
/// file's code.
class CallCollector : public RecursiveASTVisitor<CallCollector> {
public:
  CallCollector(
      const ASTContext &Ctx,
      llvm::DenseMap<const FunctionDecl *, std::vector<CallSite>> &Calls,
      llvm::DenseSet<const FunctionDecl *> &Escaping)
      : Ctx(Ctx), Calls(Calls), Escaping(Escaping) {}

  bool TraverseDecl(Decl *D) {
    const auto *F = dyn_cast_or_null<FunctionDecl>(D);
    if (!F || !F->doesThisDeclarationHaveABody())
      return RecursiveASTVisitor::TraverseDecl(D);
    return traverseBodyOf(F,
                          [&] { return RecursiveASTVisitor::TraverseDecl(D); });
  }

  bool TraverseLambdaExpr(LambdaExpr *Lambda) {
    // The captures are initialised where the lambda is made; the body runs
    // in its call operator, which the analysis analyses on its own.
    for (Expr *Init : Lambda->capture_inits())
      if (Init && !TraverseStmt(Init))
        return false;
    return traverseBodyOf(Lambda->getCallOperator(),
                          [&] { return TraverseStmt(Lambda->getBody()); });
  }

  // Loops, without the data recursion queue: a call must be seen while its
  // loop is being traversed.
  bool TraverseForStmt(ForStmt *Loop) {
    return traverseLoop(
        Loop, [&] { return RecursiveASTVisitor::TraverseForStmt(Loop); });
  }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt *Loop) {
    return traverseLoop(Loop, [&] {
      return RecursiveASTVisitor::TraverseCXXForRangeStmt(Loop);
    });
  }
  bool TraverseWhileStmt(WhileStmt *Loop) {
    return traverseLoop(
        Loop, [&] { return RecursiveASTVisitor::TraverseWhileStmt(Loop); });
  }
  bool TraverseDoStmt(DoStmt *Loop) {
    return traverseLoop(
        Loop, [&] { return RecursiveASTVisitor::TraverseDoStmt(Loop); });
  }

  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = canonical(Call->getDirectCallee());
    if (!Callee)
      return true;
    const Expr *CalleeExpr = Call->getCallee()->IgnoreParenImpCasts();
    CalleeExprs.insert(CalleeExpr);
    // Outside a function (a global's initialiser), in a template or in a
    // header: no analysis here says what the call passes.
    if (!Caller || Caller->isDependentContext() || InHeader)
      Escaping.insert(Callee);
    else
      Calls[Callee].push_back({Call, Caller, LoopDepth > 0});
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    noteReference(Ref, Ref->getDecl());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *Member) {
    noteReference(Member, Member->getMemberDecl());
    return true;
  }
  bool VisitOverloadExpr(OverloadExpr *Overloads) {
    // A call from a template that overload resolution completes when the
    // template is instantiated: any of the candidates may be called.
    for (const NamedDecl *Candidate : Overloads->decls())
      if (const auto *F =
              dyn_cast<FunctionDecl>(Candidate->getUnderlyingDecl()))
        Escaping.insert(canonical(F));
    return true;
  }
  bool VisitCXXDependentScopeMemberExpr(CXXDependentScopeMemberExpr *Member) {
    // `obj.update(x)` on an object of a template's type: any method so
    // named.
    DependentMemberNames.insert(Member->getMember().getAsString());
    return true;
  }

  llvm::StringSet<> DependentMemberNames;
  /// Traversing the user's headers: their code is analysed in every unit
  /// that includes them, the main file's only in this one, so their calls
  /// are counted as calls not seen.
  bool InHeader = false;

private:
  template <typename TraverseFn>
  bool traverseBodyOf(const FunctionDecl *F, TraverseFn Traverse) {
    const FunctionDecl *OuterCaller = Caller;
    unsigned OuterLoopDepth = LoopDepth;
    Caller = F;
    LoopDepth = 0;
    bool Continue = Traverse();
    Caller = OuterCaller;
    LoopDepth = OuterLoopDepth;
    return Continue;
  }
  /// A loop over a few levels or heads (runsAFewTimes) is code written
  /// once, repeated: a call in it is not made once per step of the data.
  template <typename TraverseFn>
  bool traverseLoop(const Stmt *Loop, TraverseFn Traverse) {
    unsigned Repeats = runsAFewTimes(Loop, Ctx) ? 0 : 1;
    LoopDepth += Repeats;
    bool Continue = Traverse();
    LoopDepth -= Repeats;
    return Continue;
  }

  void noteReference(const Expr *Ref, const ValueDecl *D) {
    const auto *F = dyn_cast_or_null<FunctionDecl>(D);
    // VisitCallExpr runs before the callee's own visit: a reference it did
    // not see as a callee is an address taken, a callback, a friend call
    // through a pointer.
    if (F && !CalleeExprs.contains(Ref))
      Escaping.insert(canonical(F));
  }

  const ASTContext &Ctx;
  llvm::DenseMap<const FunctionDecl *, std::vector<CallSite>> &Calls;
  llvm::DenseSet<const FunctionDecl *> &Escaping;
  llvm::DenseSet<const Expr *> CalleeExprs;
  const FunctionDecl *Caller = nullptr;
  /// How many loops of Caller's body that repeat with the data are around
  /// the statement visited.
  unsigned LoopDepth = 0;
};

/// The declarations at D that are written in the main file, and those in
/// the user's own headers, descending into namespaces and linkage blocks
/// that may hold some.
void collectUserDecls(Decl *D, const SourceManager &SM,
                      std::vector<Decl *> &InMainFile,
                      std::vector<Decl *> &InHeaders) {
  if (isa<TranslationUnitDecl, NamespaceDecl, LinkageSpecDecl>(D)) {
    // LibTorch's and the standard library's own code, should their headers
    // not be system headers (`-I` rather than `-isystem`), calls none of
    // the user's functions.
    if (const auto *Namespace = dyn_cast<NamespaceDecl>(D);
        Namespace && isLibraryNamespace(Namespace))
      return;
    for (Decl *Inner : cast<DeclContext>(D)->decls())
      collectUserDecls(Inner, SM, InMainFile, InHeaders);
    return;
  }
  SourceLocation Loc = SM.getExpansionLoc(D->getLocation());
  if (SM.isInMainFile(Loc))
    InMainFile.push_back(D);
  else if (Loc.isValid() && !SM.isInSystemHeader(Loc))
    InHeaders.push_back(D);
}

} // namespace

CallSiteIndex::CallSiteIndex(const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<Decl *> MainFileDecls, HeaderDecls;
  // The traversal scope is the user's code when a front-end limited it
  // (UserCodeScope.h): LibTorch's declarations are not loaded to be skipped.
  for (Decl *D : Ctx.getTraversalScope())
    collectUserDecls(D, SM, MainFileDecls, HeaderDecls);
  CallCollector Collector(Ctx, Calls, Escaping);
  for (Decl *D : MainFileDecls)
    Collector.TraverseDecl(D);
  Collector.InHeader = true;
  for (Decl *D : HeaderDecls)
    Collector.TraverseDecl(D);
  LeavesTrainingMode = Collector.DependentMemberNames.contains("eval") ||
                       Collector.DependentMemberNames.contains("train");
  for (auto &[Callee, Sites] : Calls) {
    LeavesTrainingMode |= llvm::any_of(Sites, [](const CallSite &Site) {
      return mayEnterEvalMode(Site.Call);
    });
    // `obj.update(x)` in a template may call any method so named.
    if (isa<CXXMethodDecl>(Callee) &&
        Collector.DependentMemberNames.contains(Callee->getNameAsString()))
      Escaping.insert(Callee);
  }
  for (auto &[Callee, Sites] : Calls)
    AllCallsSeen[Callee] =
        !Escaping.contains(Callee) && isCalledOnlyInMainFile(Callee, SM);
}

void CallSiteIndex::setCallsElsewhereKnown(
    std::function<bool(const FunctionDecl *)> Known) {
  CallsElsewhereKnown = std::move(Known);
}

const std::vector<CallSite> *
CallSiteIndex::callsHereOf(const FunctionDecl *F) const {
  static const std::vector<CallSite> None;
  F = canonical(F);
  if (Escaping.contains(F))
    return nullptr;
  auto It = Calls.find(F);
  return It == Calls.end() ? &None : &It->second;
}

std::vector<const FunctionDecl *> CallSiteIndex::calledOrReferenced() const {
  std::vector<const FunctionDecl *> Functions;
  for (const auto &Entry : Calls)
    Functions.push_back(Entry.first);
  for (const FunctionDecl *F : Escaping)
    if (!Calls.count(F))
      Functions.push_back(F);
  return Functions;
}

const std::vector<CallSite> *
CallSiteIndex::contextCallsOf(const FunctionDecl *F) const {
  if (const std::vector<CallSite> *Sites = allCallsOf(F))
    return Sites;
  if (CallsElsewhereKnown && CallsElsewhereKnown(canonical(F)))
    return callsHereOf(F);
  return nullptr;
}

const std::vector<CallSite> *
CallSiteIndex::allCallsOf(const FunctionDecl *F) const {
  F = canonical(F);
  auto Seen = AllCallsSeen.find(F);
  if (Seen == AllCallsSeen.end() || !Seen->second)
    return nullptr;
  return &Calls.find(F)->second;
}

std::optional<unsigned>
CallSiteIndex::contextDepth(const FunctionDecl *F) const {
  F = canonical(F);
  auto Known = Depths.find(F);
  if (Known != Depths.end())
    return Known->second;
  const std::vector<CallSite> *Sites = contextCallsOf(F);
  if (!Sites)
    return Depths[F] = 0u;
  Depths[F] = std::nullopt; // Being computed: a chain back to F recurses.
  unsigned Depth = 1;
  for (const CallSite &Site : *Sites) {
    std::optional<unsigned> Above = contextDepth(Site.Caller);
    if (!Above || *Above + 1 > MaxCallerChain)
      return Depths[F] = std::nullopt;
    Depth = std::max(Depth, *Above + 1);
  }
  return Depths[F] = Depth;
}

bool CallSiteIndex::runsAFixedNumberOfTimes(const FunctionDecl *F) const {
  F = canonical(F);
  if (F->isMain())
    return true;
  auto Known = FixedRuns.find(F);
  if (Known != FixedRuns.end())
    return Known->second;
  FixedRuns[F] = false; // Being computed: a chain back to F recurses.
  // A function nothing in the file calls is called from elsewhere, as often
  // as that code likes.
  const std::vector<CallSite> *Sites = allCallsOf(F);
  bool Fixed = Sites && !Sites->empty() &&
               llvm::all_of(*Sites, [this](const CallSite &Site) {
                 return !Site.InLoop && runsAFixedNumberOfTimes(Site.Caller);
               });
  return FixedRuns[F] = Fixed;
}

const CallSite *CallSiteIndex::loopCallOf(const FunctionDecl *F) const {
  const std::vector<CallSite> *Sites = allCallsOf(F);
  if (!Sites || Sites->empty() ||
      !llvm::all_of(*Sites, [](const CallSite &Site) { return Site.InLoop; }))
    return nullptr;
  return &Sites->front();
}

ModeSwitch CallSiteIndex::modeOnEntry(const FunctionDecl *F) const {
  F = canonical(F);
  auto Known = EntryModes.find(F);
  if (Known != EntryModes.end())
    return Known->second;
  EntryModes[F] = ModeSwitch::None; // Being computed: a recursion knows none.
  const std::vector<CallSite> *Sites = allCallsOf(F);
  if (!Sites || Sites->empty())
    return ModeSwitch::None;
  std::optional<ModeSwitch> Agreed;
  for (const CallSite &Site : *Sites) {
    const FunctionDecl *Caller = Site.Caller;
    ModeSwitch Mode = Caller->getBody() ? FunctionFacts(Caller->getBody(),
                                                        Caller->getASTContext())
                                              .modeSetBefore(Site.Call)
                                        : ModeSwitch::None;
    if (Mode == ModeSwitch::None)
      Mode = modeOnEntry(Caller);
    if (Agreed && *Agreed != Mode)
      return ModeSwitch::None;
    Agreed = Mode;
  }
  return EntryModes[F] = *Agreed;
}

bool CallSiteIndex::hasContext(const FunctionDecl *F) const {
  std::optional<unsigned> Depth = contextDepth(F);
  return Depth && *Depth > 0;
}

} // namespace torchtidy
