//===--- MutateMain.cpp - torchtidy-mutate: inject bugs into programs -----===//
//
// Writes one mutant per mutation site of each correct program:
// <out>/<stem>.<operator>.<n>.cpp, the program with one bug injected and a
// last line that labels it:
//
//   // torchtidy-mutant: <operator> line <N> expects <check>
//
// Every mutant is compiled (-fsyntax-only, the same flags); one that does
// not compile is removed and reported, so what remains always compiles.
// --no-compile-check leaves that to a caller that parses every mutant anyway
// (bench/accuracy.py lints them and drops those its lint says do not
// compile), so each mutant is parsed once, not twice.
//
// Usage: torchtidy-mutate --out <dir> [--operators a,b] [--max-per-operator N]
//                         [--no-compile-check] file... -- <flags>
// Exit: 0 mutants written, 1 an input did not parse or no mutant compiled
// for it, 2 bad usage.
//
//===----------------------------------------------------------------------===//

#include "Mutation.h"

#include "Frontend/PrecompiledVTables.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <string>
#include <vector>

using namespace clang;
using namespace torchtidy::mutate;

namespace {

llvm::cl::list<std::string> Files(llvm::cl::Positional,
                                  llvm::cl::desc("<file>..."),
                                  llvm::cl::OneOrMore);
llvm::cl::opt<std::string> OutDir("out", llvm::cl::desc("Where mutants go"),
                                  llvm::cl::Required);
llvm::cl::list<std::string>
    OnlyOperators("operators", llvm::cl::CommaSeparated,
                  llvm::cl::desc("Inject only these bug classes"));
llvm::cl::opt<unsigned> MaxPerOperator(
    "max-per-operator", llvm::cl::init(0),
    llvm::cl::desc("At most this many sites per bug class and file, the "
                   "first in source order (0: all)"));
llvm::cl::opt<bool> NoCompileCheck(
    "no-compile-check",
    llvm::cl::desc("Write every mutant without compiling it (the caller "
                   "parses each one and drops those that do not compile)"));
llvm::cl::opt<bool> ListOperators("list-operators",
                                  llvm::cl::desc("Print the bug classes"));

struct ParsedFile {
  std::string Text;
  std::vector<Mutation> Mutations;
};

class SiteAction : public ASTFrontendAction {
public:
  explicit SiteAction(ParsedFile &Result) : Result(Result) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 llvm::StringRef) override {
    return std::make_unique<Consumer>(Result);
  }
  // Sites are in the program's own code: the precompiled header's vtables,
  // most of a parse against it, need not be defined (as in the lint).
  void ExecuteAction() override {
    torchtidy::leavePrecompiledSystemVTablesUndefined(*this);
    ASTFrontendAction::ExecuteAction();
  }

private:
  struct Consumer : ASTConsumer {
    explicit Consumer(ParsedFile &Result) : Result(Result) {}
    void HandleTranslationUnit(ASTContext &Ctx) override {
      // Sites in a TU with errors could be on error-recovery nodes.
      if (Ctx.getDiagnostics().hasErrorOccurred())
        return;
      const SourceManager &SM = Ctx.getSourceManager();
      Result.Text = SM.getBufferData(SM.getMainFileID()).str();
      Result.Mutations = findMutations(Ctx);
    }
    ParsedFile &Result;
  };
  ParsedFile &Result;
};

template <typename Make> struct ActionFactory : tooling::FrontendActionFactory {
  explicit ActionFactory(Make MakeAction) : MakeAction(MakeAction) {}
  std::unique_ptr<FrontendAction> create() override { return MakeAction(); }
  Make MakeAction;
};

/// Counts errors and keeps the first, so a mutant that does not compile is
/// reported in one line.
class FirstError : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error || !Message.empty())
      return;
    llvm::SmallString<128> Text;
    Info.FormatDiagnostic(Text);
    Message = Text.str().str();
    if (Info.getLocation().isValid() && Info.hasSourceManager())
      Message = Info.getLocation().printToString(Info.getSourceManager()) +
                ": " + Message;
  }
  std::string Message;
};

bool compiles(const tooling::CompilationDatabase &Database,
              const std::string &Path, std::string &Error) {
  tooling::ClangTool Tool(Database, {Path});
  Tool.setPrintErrorMessage(false);
  // No "N errors generated." line: the error is reported in one line.
  Tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
      "-fno-caret-diagnostics", tooling::ArgumentInsertPosition::END));
  FirstError Errors;
  Tool.setDiagnosticConsumer(&Errors);
  int Status =
      Tool.run(tooling::newFrontendActionFactory<SyntaxOnlyAction>().get());
  Error = Errors.Message;
  return Status == 0 && Errors.getNumErrors() == 0;
}

bool selected(llvm::StringRef Operator) {
  return OnlyOperators.empty() ||
         llvm::is_contained(OnlyOperators, Operator.str());
}

struct Tally {
  unsigned Sites = 0;
  unsigned Written = 0;
  unsigned DoNotCompile = 0;
};

} // namespace

int main(int Argc, const char **Argv) {
  std::string Error;
  std::unique_ptr<tooling::FixedCompilationDatabase> Database =
      tooling::FixedCompilationDatabase::loadFromCommandLine(Argc, Argv, Error);
  llvm::cl::ParseCommandLineOptions(
      Argc, Argv, "torchtidy-mutate: inject device-placement bugs");
  if (ListOperators) {
    for (const MutationOperator &Op : mutationOperators())
      llvm::outs() << Op.Name << "\t" << Op.ExpectedCheck << "\t"
                   << Op.Description << "\n";
    return 0;
  }
  if (!Database) {
    llvm::errs() << "torchtidy-mutate: give compiler flags after '--'"
                 << (Error.empty() ? "" : ": " + Error) << "\n";
    return 2;
  }
  for (const std::string &Name : OnlyOperators)
    if (llvm::none_of(mutationOperators(), [&](const MutationOperator &Op) {
          return Op.Name == Name;
        })) {
      llvm::errs() << "torchtidy-mutate: unknown operator '" << Name
                   << "' (see --list-operators)\n";
      return 2;
    }
  if (std::error_code EC = llvm::sys::fs::create_directories(OutDir)) {
    llvm::errs() << "torchtidy-mutate: cannot create '" << OutDir
                 << "': " << EC.message() << "\n";
    return 2;
  }

  std::map<std::string, Tally> Tallies;
  int Status = 0;
  for (const std::string &File : Files) {
    ParsedFile Parsed;
    tooling::ClangTool Tool(*Database, {File});
    auto MakeAction = [&Parsed] {
      return std::make_unique<SiteAction>(Parsed);
    };
    ActionFactory<decltype(MakeAction)> Factory(MakeAction);
    if (Tool.run(&Factory) != 0 || Parsed.Text.empty()) {
      llvm::errs() << "torchtidy-mutate: " << File
                   << ": does not compile; no mutants\n";
      Status = 1;
      continue;
    }
    llvm::StringRef Stem = llvm::sys::path::stem(File);
    llvm::StringMap<unsigned> Numbers;
    for (const Mutation &M : Parsed.Mutations) {
      if (!selected(M.Operator) ||
          (MaxPerOperator && Numbers[M.Operator] >= MaxPerOperator))
        continue;
      Tally &Count = Tallies[M.Operator.str()];
      ++Count.Sites;
      std::string Text = applyMutation(Parsed.Text, M);
      if (Text.empty())
        continue;
      if (Text.back() != '\n')
        Text += '\n';
      Text += "// torchtidy-mutant: " + M.Operator.str() + " line " +
              std::to_string(M.Line) + " expects " + M.ExpectedCheck.str() +
              "\n";
      llvm::SmallString<256> Path(OutDir);
      llvm::sys::path::append(Path, Stem + "." + M.Operator + "." +
                                        std::to_string(++Numbers[M.Operator]) +
                                        ".cpp");
      std::error_code EC;
      {
        llvm::raw_fd_ostream Out(Path, EC);
        if (!EC)
          Out << Text;
      }
      if (EC) {
        llvm::errs() << "torchtidy-mutate: cannot write '" << Path
                     << "': " << EC.message() << "\n";
        return 2;
      }
      std::string CompileError;
      if (!NoCompileCheck &&
          !compiles(*Database, std::string(Path), CompileError)) {
        llvm::errs() << "torchtidy-mutate: dropped " << Path
                     << " (does not compile: " << CompileError << ")\n";
        llvm::sys::fs::remove(Path);
        ++Count.DoNotCompile;
        continue;
      }
      ++Count.Written;
    }
  }

  llvm::outs() << "operator                  sites  mutants do-not-compile\n";
  for (const MutationOperator &Op : mutationOperators()) {
    if (!selected(Op.Name))
      continue;
    const Tally &Count = Tallies[Op.Name.str()];
    llvm::outs() << llvm::format("%-24s %6u %8u %14u\n", Op.Name.str().c_str(),
                                 Count.Sites, Count.Written,
                                 Count.DoNotCompile);
  }
  return Status;
}
