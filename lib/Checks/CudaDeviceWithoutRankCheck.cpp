//===--- CudaDeviceWithoutRankCheck.cpp - cuda-device-without-rank --------===//

#include "Checks/CudaDeviceWithoutRankCheck.h"
#include "Analysis/FunctionFacts.h"
#include "Model/TorchApi.h"

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

/// Whether E reads the process's local rank, anywhere inside it
/// (`std::stoi(std::getenv("LOCAL_RANK"))`).
static bool readsLocalRank(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S);
      Call && rankReadBy(Call) == RankKind::Local)
    return true;
  return llvm::any_of(S->children(), readsLocalRank);
}

/// A name the code gives the local rank: `local_rank`, `localRank`,
/// `local_rank_`.
static bool isLocalRankName(llvm::StringRef Name) {
  std::string Letters;
  for (char C : Name)
    if (C != '_')
      Letters += static_cast<char>(std::tolower(C));
  return Letters == "localrank";
}

void CudaDeviceWithoutRankCheck::registerMatchers(MatchFinder *Finder) {
  auto InUserCode = unless(isExpansionInSystemHeader());
  Finder->addMatcher(cxxConstructExpr(InUserCode).bind("construct"), this);
  Finder->addMatcher(callExpr(InUserCode).bind("call"), this);
  Finder->addMatcher(varDecl(InUserCode).bind("var"), this);
}

void CudaDeviceWithoutRankCheck::noteDistributed(SourceLocation Loc,
                                                 llvm::StringRef What) {
  if (DistributedAt.isInvalid()) {
    DistributedAt = Loc;
    DistributedBy = What.str();
  }
}

void CudaDeviceWithoutRankCheck::check(const MatchFinder::MatchResult &Result) {
  Sources = Result.SourceManager;
  const LangOptions &Lang = Result.Context->getLangOpts();
  auto Written = [&](SourceRange Range) {
    return Lexer::getSourceText(CharSourceRange::getTokenRange(Range), *Sources,
                                Lang)
        .str();
  };
  if (const auto *Var = Result.Nodes.getNodeAs<VarDecl>("var")) {
    if (isProcessGroupType(Var->getType()))
      noteDistributed(Var->getLocation(), "holds a process group");
    bool IsLocalRank = Var->getType()->isIntegralOrEnumerationType() &&
                       ((Var->hasInit() && readsLocalRank(Var->getInit())) ||
                        isLocalRankName(Var->getName()));
    if (!IsLocalRank)
      return;
    SourceRange Scope;
    if (const auto *Function =
            dyn_cast<FunctionDecl>(Var->getParentFunctionOrMethod()))
      Scope = Function->getBody() ? Function->getBody()->getSourceRange()
                                  : SourceRange();
    if (Var->isLocalVarDeclOrParm() && Scope.isInvalid())
      return;
    LocalRanks.push_back({Var->getNameAsString(), Var->getLocation(), Scope});
    return;
  }
  if (const auto *Construct =
          Result.Nodes.getNodeAs<CXXConstructExpr>("construct")) {
    if (isProcessGroupType(Construct->getType()))
      noteDistributed(Construct->getBeginLoc(), "creates a process group");
    if (const Expr *Index = currentDeviceGuardedBy(Construct);
        Index && isComputedDeviceIndex(Index))
      SetsCurrentDevice = true;
    std::optional<CudaDeviceWithoutRank> Device =
        cudaDeviceWithoutRank(Construct);
    if (!Device)
      return;
    Site Found;
    // A fixed index is named with the type: `torch::kCUDA, 0`.
    Found.Text = Written(Device->FixedIndex
                             ? SourceRange(Device->Spelled->getBeginLoc(),
                                           Device->FixedIndex->getEndLoc())
                             : Device->Spelled->getSourceRange());
    Found.FixedIndex = Device->FixedIndex != nullptr;
    Found.InMacro = Construct->getBeginLoc().isMacroID() ||
                    Construct->getEndLoc().isMacroID();
    if (Device->FixedIndex && !isa<StringLiteral>(Device->FixedIndex)) {
      // `torch::Device(torch::kCUDA, 0)`: the index is what changes.
      Found.Replaced = Device->FixedIndex->getSourceRange();
      Found.Replacement = "%rank";
    } else {
      // `torch::Device(torch::kCUDA)`, `device("cuda")`: an index next to
      // the type; `.to(torch::kCUDA)`: a device in place of the type.
      Found.Replaced = Device->Spelled->getSourceRange();
      Found.Replacement = Device->Written
                              ? "torch::kCUDA, %rank"
                              : "torch::Device(torch::kCUDA, %rank)";
    }
    Sites.push_back(std::move(Found));
    return;
  }
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  if (!Call)
    return;
  if (isProcessGroupType(Call->getType()))
    noteDistributed(Call->getBeginLoc(), "creates a process group");
  if (RankKind Rank = rankReadBy(Call); Rank != RankKind::None)
    noteDistributed(Call->getBeginLoc(), Rank == RankKind::Local
                                             ? "reads its local rank"
                                             : "reads its rank");
  if (const Expr *Index = currentDeviceSetBy(Call);
      Index && isComputedDeviceIndex(Index))
    SetsCurrentDevice = true;
  // `.cuda()`: the one move that takes no device.
  if (!movesToCurrentCudaDevice(Call))
    return;
  const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
  const auto *Callee =
      Member ? dyn_cast<MemberExpr>(Member->getCallee()) : nullptr;
  if (!Callee)
    return;
  Site Found;
  Found.Text = ".cuda()";
  Found.CudaCall = true;
  Found.InMacro =
      Call->getBeginLoc().isMacroID() || Call->getEndLoc().isMacroID();
  // From the method's name to the closing parenthesis.
  Found.Replaced = SourceRange(Callee->getMemberLoc(), Call->getRParenLoc());
  Found.Replacement = "to(torch::Device(torch::kCUDA, %rank))";
  Sites.push_back(std::move(Found));
}

void CudaDeviceWithoutRankCheck::onEndOfTranslationUnit() {
  if (DistributedAt.isValid() && !SetsCurrentDevice)
    for (const Site &Found : Sites) {
      SourceLocation Loc = Found.Replaced.getBegin();
      const LocalRank *Rank = nullptr;
      for (const LocalRank &Candidate : LocalRanks)
        if (Sources->isBeforeInTranslationUnit(Candidate.Declared, Loc) &&
            (Candidate.Scope.isInvalid() ||
             rangeContains(*Sources, Candidate.Scope, Loc)))
          Rank = &Candidate;
      std::string RankName = Rank ? Rank->Name : "local_rank";
      std::string Replacement = Found.Replacement;
      Replacement.replace(Replacement.find("%rank"), 5, RankName);
      {
        auto Diag =
            diag(Loc,
                 "%select{'%1' is the current CUDA device|'%1' is one fixed "
                 "GPU|'.cuda()' moves to the current CUDA device}0, the same "
                 "GPU in every process of this distributed program; use the "
                 "process's own: '%2'")
            << (Found.CudaCall     ? 2
                : Found.FixedIndex ? 1
                                   : 0)
            << Found.Text
            << (Found.CudaCall
                    ? ".to(torch::Device(torch::kCUDA, " + RankName + "))"
                    : "torch::Device(torch::kCUDA, " + RankName + ")");
        if (Rank && !Found.InMacro)
          Diag << FixItHint::CreateReplacement(
              CharSourceRange::getTokenRange(Found.Replaced), Replacement);
      }
      diag(DistributedAt, "the program runs one process per rank: it %0 here",
           DiagnosticIDs::Note)
          << DistributedBy;
    }
  Sites.clear();
  LocalRanks.clear();
  DistributedAt = SourceLocation();
  DistributedBy.clear();
  SetsCurrentDevice = false;
  Sources = nullptr;
}

} // namespace torchtidy
