//===--- TorchTidyClangPlugin.cpp - The checks inside the compiler --------===//
//
//   clang++ -fplugin=$(torchtidy --print-plugin-path=clang) ...
//
// Runs the libtorch checks on the AST the compiler already built (no second
// parse) and reports findings as compiler warnings, so -Werror turns them
// into errors. Checks are chosen as in the torchtidy command: the bug level by
// default, then any .clang-tidy, then -fplugin-arg-torchtidy-level=<level>,
// then -fplugin-arg-torchtidy-checks=<globs>. With
// -fplugin-arg-torchtidy-facts=<index> (written by `torchtidy --index`),
// calls of functions other files of the project define use their facts.
//
//===----------------------------------------------------------------------===//

#include "Analysis/ProjectFacts.h"
#include "Frontend/CheckSelection.h"
#include "Frontend/UserCodeScope.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/Config/llvm-config.h"

using namespace clang;
using namespace clang::tidy;

namespace torchtidy {
namespace {

/// Runs the checks on the user's code and keeps the clang-tidy context and
/// its diagnostics engine alive exactly as long as the checks that use them.
class OwningConsumer : public UserCodeScopeConsumer {
public:
  OwningConsumer(CompilerInstance &Compiler,
                 std::unique_ptr<ClangTidyContext> Context,
                 std::unique_ptr<DiagnosticOptions> Options,
                 std::unique_ptr<DiagnosticsEngine> Engine,
                 std::unique_ptr<ASTConsumer> Checks)
      : UserCodeScopeConsumer(Compiler.getSourceManager(), std::move(Checks)),
        CompilerDiags(Compiler.getDiagnostics()), Context(std::move(Context)),
        Options(std::move(Options)), Engine(std::move(Engine)) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    unsigned WarningsBefore = CompilerDiags.getNumWarnings();
    UserCodeScopeConsumer::HandleTranslationUnit(Ctx);
    // Forwarded findings keep their warning level whatever the compiler's
    // flags say; -Werror must still fail the compile.
    unsigned Findings = CompilerDiags.getNumWarnings() - WarningsBefore;
    if (Findings > 0 && CompilerDiags.getWarningsAsErrors())
      CompilerDiags.Report(CompilerDiags.getCustomDiagID(
          DiagnosticsEngine::Error,
          "%0 torchtidy finding%s0 treated as error%s0 (-Werror)"))
          << Findings;
  }

private:
  DiagnosticsEngine &CompilerDiags;
  // Destroyed in reverse: the engine before the options it refers to.
  std::unique_ptr<ClangTidyContext> Context;
  std::unique_ptr<DiagnosticOptions> Options;
  std::unique_ptr<DiagnosticsEngine> Engine;
};

class TorchTidyPluginAction : public PluginASTAction {
public:
  bool ParseArgs(const CompilerInstance &Compiler,
                 const std::vector<std::string> &Args) override {
    // A bad argument is a compiler error, so the build stops instead of
    // silently not linting.
    DiagnosticsEngine &Diags = Compiler.getDiagnostics();
    for (const std::string &Arg : Args) {
      llvm::StringRef Text = Arg;
      if (Text.consume_front("checks=")) {
        Checks = Text.str();
      } else if (Text.consume_front("facts=")) {
        std::string Error;
        if (!projectFactsIndex(Text, Error)) {
          Diags.Report(Diags.getCustomDiagID(
              DiagnosticsEngine::Error,
              "torchtidy plugin: cannot use the project facts: %0"))
              << Error;
          return false;
        }
        ProjectFactsIndex = Text.str();
      } else if (Text.consume_front("level=")) {
        Level = parseCheckLevel(Text);
        if (!Level) {
          Diags.Report(Diags.getCustomDiagID(
              DiagnosticsEngine::Error,
              "torchtidy plugin: unknown level '%0' (use bug, performance "
              "or style)"))
              << Text;
          return false;
        }
      } else {
        Diags.Report(Diags.getCustomDiagID(
            DiagnosticsEngine::Error,
            "torchtidy plugin: unknown argument '%0' (use checks=<globs>, "
            "level=<level> or facts=<index>)"))
            << Arg;
        return false;
      }
    }
    return true;
  }

  // Run after the compiler's own action: `-fplugin=` alone is enough.
  ActionType getActionType() override { return AddAfterMainAction; }

  std::unique_ptr<ASTConsumer>
  CreateASTConsumer(CompilerInstance &Compiler, llvm::StringRef File) override {
    auto Context = std::make_unique<ClangTidyContext>(
        makeOptionsProvider(Level, Checks, ProjectFactsIndex));
    // Findings go to the compiler's own diagnostics: its -Werror, its output.
    auto *Forwarder =
        new ClangTidyDiagnosticConsumer(*Context, &Compiler.getDiagnostics());
    auto Options = std::make_unique<DiagnosticOptions>();
#if LLVM_VERSION_MAJOR >= 22
    auto Engine = std::make_unique<DiagnosticsEngine>(DiagnosticIDs::create(),
                                                      *Options, Forwarder);
    Context->setDiagnosticsEngine(nullptr, Engine.get());
#else
    auto Engine = std::make_unique<DiagnosticsEngine>(
        new DiagnosticIDs, new DiagnosticOptions, Forwarder);
    Context->setDiagnosticsEngine(Engine.get());
#endif
    ClangTidyASTConsumerFactory Factory(*Context);
    std::unique_ptr<ASTConsumer> ChecksConsumer =
        Factory.createASTConsumer(Compiler, File);
    return std::make_unique<OwningConsumer>(
        Compiler, std::move(Context), std::move(Options), std::move(Engine),
        std::move(ChecksConsumer));
  }

private:
  std::optional<CheckLevel> Level;
  std::string Checks;
  std::string ProjectFactsIndex;
};

} // namespace
} // namespace torchtidy

static FrontendPluginRegistry::Add<torchtidy::TorchTidyPluginAction>
    X("torchtidy", "device-placement checks for LibTorch code");
