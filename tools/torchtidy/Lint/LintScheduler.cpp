//===--- LintScheduler.cpp - Which file is linted when --------------------===//

#include "LintScheduler.h"
#include "LintSession.h"
#include "ResultCache.h"
#include "SharedPrefixPch.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <set>
#include <thread>
#include <tuple>

using namespace clang;

namespace torchtidy {

/// Whether a source file defines `main`: a program, whose calls go into the
/// project's other files rather than the other way round.
static bool definesMain(llvm::StringRef File) {
  auto Buffer = llvm::MemoryBuffer::getFile(File);
  if (!Buffer)
    return false;
  llvm::StringRef Text = (*Buffer)->getBuffer();
  for (size_t At = Text.find("main"); At != llvm::StringRef::npos;
       At = Text.find("main", At + 4)) {
    bool WordStart = At == 0 || !(isalnum(Text[At - 1]) || Text[At - 1] == '_');
    llvm::StringRef After = Text.drop_front(At + 4).ltrim();
    llvm::StringRef Before = Text.take_front(At).rtrim();
    if (WordStart && After.starts_with("(") &&
        (Before.ends_with("int") || Before.ends_with("auto")))
      return true;
  }
  return false;
}

/// Runs Worker on min(Jobs, Tasks) threads (at least one), this one
/// included, and waits for them.
static void runWorkers(unsigned Jobs, size_t Tasks,
                       llvm::function_ref<void()> Worker) {
  size_t Threads = std::max<size_t>(1, std::min<size_t>(Jobs, Tasks));
  std::vector<std::thread> Pool;
  for (size_t T = 1; T < Threads; ++T)
    Pool.emplace_back([&] { Worker(); });
  Worker();
  for (std::thread &Thread : Pool)
    Thread.join();
}

/// Orders Units callees first: after every unit that ReadFrom says it reads
/// from, the deepest providers' readers last, a cycle cut where the walk
/// entered it. Units at one depth keep their order.
static void
sortCalleesFirst(std::vector<size_t> &Units, size_t UnitCount,
                 llvm::function_ref<std::vector<size_t>(size_t)> ReadFrom) {
  constexpr int Unvisited = -1, BeingWalked = -2;
  std::vector<int> Depth(UnitCount, Unvisited);
  std::function<int(size_t)> DepthOf = [&](size_t I) {
    if (Depth[I] == BeingWalked) // A cycle, cut where the walk entered it.
      return 0;
    if (Depth[I] != Unvisited)
      return Depth[I];
    Depth[I] = BeingWalked;
    int Deepest = 0;
    for (size_t Provider : ReadFrom(I))
      Deepest = std::max(Deepest, DepthOf(Provider) + 1);
    return Depth[I] = Deepest;
  };
  std::stable_sort(Units.begin(), Units.end(),
                   [&](size_t A, size_t B) { return DepthOf(A) < DepthOf(B); });
}

/// The first queued unit that reads from no unit being linted or queued
/// before it; Queue.end() while each one does. The first in the queue waits
/// only for running ones, which finish: nothing waits forever.
static std::vector<size_t>::iterator
firstReadyUnit(std::vector<size_t> &Queue, const std::vector<bool> &Running,
               llvm::function_ref<std::vector<size_t>(size_t)> ReadFrom) {
  llvm::DenseSet<size_t> QueuedBefore;
  for (auto It = Queue.begin(); It != Queue.end(); ++It) {
    bool Waits = llvm::any_of(ReadFrom(*It), [&](size_t Provider) {
      return Running[Provider] || QueuedBefore.contains(Provider);
    });
    if (!Waits)
      return It;
    QueuedBefore.insert(*It);
  }
  return Queue.end();
}

/// Whether a unit's last lint read a fact of one of Names.
static bool readsAnyOf(const FileResult &Reader,
                       const std::set<std::string> &Names) {
  return llvm::any_of(Reader.Facts.Used, [&](const auto &Used) {
    return Names.count(Used.first) != 0;
  });
}

/// Lints again, until none is left, the units whose findings rest on facts
/// that changed since they read them (a unit linted before the one it calls
/// into, or while it was being linted). A worklist, callees first: a unit
/// waits while a unit it reads from is being linted or queued before it, so
/// a chain of files settles link after link in one pass, with any number of
/// jobs; when a unit's facts change, the units that read them are queued
/// again. The findings are those of each unit's last lint, against the
/// facts as they settled, whatever the order and -j. Facts that never
/// settle (a cycle of files whose summaries keep changing) stop at
/// MaxLintsPerFile lints of a unit; those units are Stats->Unsettled.
static void settleProjectFacts(
    const LintRequest &Request, const std::vector<std::string> &Files,
    const std::vector<std::string> &UnitNames,
    const std::vector<FileResult> &Results, std::mutex &ResultsLock,
    llvm::function_ref<void(LintSession &, size_t)> LintAgain) {
  const ProjectFacts &Project = *Request.Project;
  llvm::StringMap<size_t> UnitIndex;
  for (size_t I = 0; I < UnitNames.size(); ++I)
    UnitIndex[UnitNames[I]] = I;
  // All under QueueLock, and ResultsLock where Results are read.
  std::mutex QueueLock;
  std::condition_variable QueueChanged;
  std::vector<size_t> Queue;
  std::vector<unsigned> Lints(Files.size(), 1);
  std::vector<bool> Queued(Files.size()), Running(Files.size());
  size_t RunningCount = 0;

  // The run's units whose facts unit I read in its last lint.
  auto ReadFrom = [&](size_t I) {
    std::vector<size_t> Providers;
    for (const auto &Used : Results[I].Facts.Used)
      for (const std::string &Unit : Project.providersOf(Used.first))
        if (auto Found = UnitIndex.find(Unit);
            Found != UnitIndex.end() && Found->second != I)
          Providers.push_back(Found->second);
    return Providers;
  };
  auto IsStale = [&](size_t I) {
    return !Queued[I] && !Running[I] && Lints[I] < MaxLintsPerFile &&
           Project.changedSince(Results[I].Facts);
  };
  auto Enqueue = [&](size_t I) {
    Queued[I] = true;
    Queue.push_back(I);
  };
  // The first stale units, callees first: deepest providers' readers last.
  {
    std::lock_guard<std::mutex> Lock(ResultsLock);
    std::vector<size_t> Stale;
    for (size_t I = 0; I < Files.size(); ++I)
      if (IsStale(I))
        Stale.push_back(I);
    sortCalleesFirst(Stale, Files.size(), ReadFrom);
    for (size_t I : Stale)
      Enqueue(I);
  }

  auto Worker = [&] {
    LintSession Session(Request);
    std::unique_lock<std::mutex> Lock(QueueLock);
    while (true) {
      std::vector<size_t>::iterator Next;
      {
        std::lock_guard<std::mutex> Guard(ResultsLock);
        Next = firstReadyUnit(Queue, Running, ReadFrom);
      }
      if (Next == Queue.end()) {
        if (Queue.empty() && RunningCount == 0)
          return;
        QueueChanged.wait(Lock);
        continue;
      }
      size_t I = *Next;
      Queue.erase(Next);
      Queued[I] = false;
      Running[I] = true;
      ++RunningCount;
      // What I provided before this lint, and after: the names whose
      // readers may now be stale.
      std::set<std::string> Provided;
      {
        std::lock_guard<std::mutex> Guard(ResultsLock);
        for (const auto &Summary : Results[I].Facts.Summaries)
          Provided.insert(Summary.first);
      }
      Lock.unlock();
      LintAgain(Session, I);
      Lock.lock();
      Running[I] = false;
      --RunningCount;
      ++Lints[I];
      if (Request.Stats) {
        ++Request.Stats->Linted;
        ++Request.Stats->LintedAgain;
      }
      // Whoever read what I provides, and I itself, should a fact it read
      // have changed while it was linted.
      {
        std::lock_guard<std::mutex> Guard(ResultsLock);
        for (const auto &Summary : Results[I].Facts.Summaries)
          Provided.insert(Summary.first);
        for (size_t Reader = 0; Reader < Files.size(); ++Reader) {
          bool ReadsI = Reader == I || readsAnyOf(Results[Reader], Provided);
          if (ReadsI && IsStale(Reader))
            Enqueue(Reader);
        }
      }
      QueueChanged.notify_all();
    }
  };
  // Every job from the start: a short queue may grow.
  if (!Queue.empty())
    runWorkers(Request.Jobs, Request.Jobs, Worker);
  if (Request.Stats)
    for (size_t I = 0; I < Files.size(); ++I)
      if (Project.changedSince(Results[I].Facts))
        Request.Stats->Unsettled.push_back(Files[I]);
}

/// The names, without extension, of the headers a source file includes in
/// quotes: its project's own.
static llvm::StringSet<> quotedHeaderStemsOf(llvm::StringRef File) {
  llvm::StringSet<> Stems;
  auto Buffer = llvm::MemoryBuffer::getFile(File);
  if (!Buffer)
    return Stems;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    Line = Line.ltrim();
    if (!Line.consume_front("#"))
      continue;
    Line = Line.ltrim();
    if (!Line.consume_front("include"))
      continue;
    Line = Line.ltrim();
    if (!Line.consume_front("\""))
      continue;
    Stems.insert(llvm::sys::path::stem(
        Line.take_until([](char C) { return C == '"'; })));
  }
  return Stems;
}

/// Puts the files to lint in the order that spares second lints: the files
/// a file probably calls into first (those named like a header it includes
/// in quotes: `decoder_rnn.cpp` for `#include "decoder_rnn.h"`), the
/// programs last, path order otherwise (a database lists its files in no
/// order of its own). A file analysed after the files it calls into have
/// provided their facts needs no second lint; where the guess is wrong, the
/// settling below lints again, as it would anyway. Sets IsProgram (one
/// entry a file) for the files that define `main`.
static void putCalleesFirst(std::vector<size_t> &ToLint,
                            const std::vector<std::string> &Files,
                            std::vector<bool> &IsProgram) {
  llvm::StringMap<std::vector<size_t>> UnitsOfStem;
  for (size_t I : ToLint) {
    IsProgram[I] = definesMain(Files[I]);
    UnitsOfStem[llvm::sys::path::stem(Files[I])].push_back(I);
  }
  std::vector<std::vector<size_t>> Callees(Files.size());
  for (size_t I : ToLint)
    for (const auto &Stem : quotedHeaderStemsOf(Files[I]))
      for (size_t Callee : UnitsOfStem.lookup(Stem.getKey()))
        if (Callee != I)
          Callees[I].push_back(Callee);
  llvm::sort(ToLint, [&](size_t A, size_t B) {
    return std::make_tuple(llvm::StringRef(Files[A]), A) <
           std::make_tuple(llvm::StringRef(Files[B]), B);
  });
  sortCalleesFirst(ToLint, Files.size(), [&](size_t I) { return Callees[I]; });
  std::vector<size_t> ProgramsLast;
  llvm::copy_if(ToLint, std::back_inserter(ProgramsLast),
                [&](size_t I) { return !IsProgram[I]; });
  llvm::copy_if(ToLint, std::back_inserter(ProgramsLast),
                [&](size_t I) { return IsProgram[I]; });
  ToLint = std::move(ProgramsLast);
}

/// Groups the files to lint by their shared prefix; returns the groups
/// whose PCH is worth preparing.
static std::vector<size_t> planSharedPrefixes(
    SharedPrefixPch &Sharing, unsigned Jobs, LintSession &Planner,
    const tooling::CompilationDatabase &Database,
    const std::vector<std::string> &Files, const std::vector<size_t> &ToLint) {
  for (size_t I : ToLint)
    if (std::optional<tooling::CompileCommand> Command =
            Planner.adjustedCommand(Database, Files[I]))
      Sharing.add(Files[I], *Command);
  return Sharing.plan(Jobs);
}

/// Lints a file against its group's PCH (Prefix), or on its own without
/// one.
/// An error the PCH cannot have caused: in the unit's own code, no note of
/// it in a file the PCH was built from, and no spelling suggestion (typo
/// correction searches what the PCH holds too, and may name another
/// candidate than a whole parse). Against the same prefix, parsed to the
/// same AST, such an error is the one a whole parse reports.
static bool errorOfTheUnitAlone(const Finding &F,
                                const llvm::StringSet<> &PrefixInputs) {
  auto InUnit = [&](const tooling::DiagnosticMessage &M) {
    return !M.FilePath.empty() &&
           !PrefixInputs.contains(absolutePath(F, M.FilePath)) &&
           !llvm::StringRef(M.Message).contains("did you mean");
  };
  return InUnit(F.Message) && llvm::all_of(F.Notes, InUnit);
}

static FileResult lintWithPrefix(LintSession &Session,
                                 const LintRequest &Request,
                                 const tooling::CompilationDatabase &Database,
                                 llvm::StringRef File,
                                 const SharedPrefixPch::Prefix *Prefix) {
  const ProjectFacts *Facts = Request.Project;
  FileResult Result;
  if (Prefix) {
    Result = Session.lintFile(Database, File, Prefix->PchPath, Facts);
    // Never a different result for sharing: a unit that does not parse
    // against the prefix (a header that is not include-guarded, a stale
    // PCH) is parsed again on its own, with its own errors. Not one whose
    // only errors are headers missing from the include path (a third-party
    // library not installed: the parse stops at the first, with the PCH or
    // without, and the PCH built, so none is in the prefix), or errors of
    // its own code alone (code that does not compile, the same either way).
    llvm::StringSet<> PrefixInputs;
    for (const std::string &Input : Prefix->Inputs)
      PrefixInputs.insert(Input);
    auto ErrorOfTheParse = [&](const Finding &F) {
      return isCompilerError(F) && !isMissingIncludeError(F) &&
             !errorOfTheUnitAlone(F, PrefixInputs);
    };
    if (llvm::any_of(Result.Findings, ErrorOfTheParse)) {
      Result = Session.lintFile(Database, File, "", Facts);
    } else {
      Request.Sharing->countUnitParsedAgainstPch();
      llvm::append_range(Result.Inputs, Prefix->Inputs);
      llvm::sort(Result.Inputs);
      Result.Inputs.erase(
          std::unique(Result.Inputs.begin(), Result.Inputs.end()),
          Result.Inputs.end());
    }
  } else {
    Result = Session.lintFile(Database, File, "", Facts);
  }
  return Result;
}

std::vector<Finding> lintInParallel(
    const LintRequest &Request, const tooling::CompilationDatabase &Database,
    const std::vector<std::string> &Files,
    llvm::function_ref<void(size_t, size_t, llvm::StringRef)> Progress) {
  std::vector<FileResult> Results(Files.size());
  size_t Done = 0, Total = Files.size();
  std::mutex ProgressLock;
  auto Report = [&](size_t I) {
    std::lock_guard<std::mutex> Lock(ProgressLock);
    Progress(++Done, Total, Files[I]);
  };
  // In a project, each file is analysed with what the others provide
  // (ProjectFacts.h), as soon as they provide it.
  ProjectFacts *Project = Request.Project;
  bool InProject = Project != nullptr;
  std::vector<std::string> UnitNames(Files.size());
  if (InProject)
    for (size_t I = 0; I < Files.size(); ++I)
      UnitNames[I] = projectUnitName(Files[I]);

  // Cached results first (stat calls, mostly), so that only the units to
  // lint decide which prefixes are worth precompiling.
  LintSession Planner(Request);
  std::vector<size_t> ToLint;
  std::vector<std::string> CacheKeys(Files.size());
  for (size_t I = 0; I < Files.size(); ++I) {
    if (Request.Cache) {
      // Findings made with other files' facts are not those of the file
      // alone: a run of one kind never reads the other's entries.
      CacheKeys[I] = Request.Cache->keyFor(
          Database.getCompileCommands(Files[I]),
          Planner.optionsText(Files[I]) +
              (InProject ? "\n# with project facts" : ""));
      if (std::optional<FileResult> Cached =
              Request.Cache->lookup(CacheKeys[I])) {
        Results[I] = std::move(*Cached);
        if (InProject)
          Project->provide(UnitNames[I], Results[I].Facts.Summaries);
        Report(I);
        continue;
      }
    }
    ToLint.push_back(I);
  }
  std::vector<bool> IsProgram(Files.size());
  if (InProject)
    putCalleesFirst(ToLint, Files, IsProgram);
  std::vector<size_t> PrefixGroups;
  if (Request.Sharing)
    PrefixGroups = planSharedPrefixes(*Request.Sharing, Request.Jobs, Planner,
                                      Database, Files, ToLint);

  // Guards Results while the settling below reads other units' results.
  std::mutex ResultsLock;
  auto LintOne = [&](LintSession &Session, size_t I) {
    // May wait while another worker builds the PCH.
    const SharedPrefixPch::Prefix *Prefix =
        Request.Sharing ? Request.Sharing->prefixFor(Files[I]) : nullptr;
    // After that wait: an input written before the lint reads it (the PCH
    // just built) does not make the result uncacheable.
    auto LintStart = std::chrono::system_clock::now();
    FileResult Result =
        lintWithPrefix(Session, Request, Database, Files[I], Prefix);
    // A unit that does not parse may call what its facts do not show.
    if (InProject && llvm::any_of(Result.Findings, isCompilerError))
      Result.Facts.Summaries[IncompleteUnitFact.str()] = "";
    if (InProject)
      Project->provide(UnitNames[I], Result.Facts.Summaries);
    // With its errors too: they rest on the same inputs as any result, and
    // a header that was missing is watched for (its folders are inputs).
    if (Request.Cache)
      Request.Cache->store(CacheKeys[I], Result, LintStart);
    {
      std::lock_guard<std::mutex> Lock(ResultsLock);
      Results[I] = std::move(Result);
    }
    Report(I);
  };

  // First every file to lint, in the order above. A file that calls into
  // one linted after it read no fact, or an old one.
  {
    std::atomic<size_t> NextPrefix{0};
    std::mutex QueueLock;
    std::vector<size_t> Queue = ToLint;
    // The next unit in order; while its PCH is being built, the first unit
    // after it that does not wait for one (a file that does not share, or
    // whose PCH is ready), so that no worker idles through a build. Not a
    // program: linted before the files it calls into, it would be linted
    // again.
    auto TakeUnit = [&]() -> std::optional<size_t> {
      std::lock_guard<std::mutex> Lock(QueueLock);
      if (Queue.empty())
        return std::nullopt;
      auto Taken = Queue.begin();
      auto Waits = [&](size_t I) {
        return Request.Sharing && Request.Sharing->wouldWait(Files[I]);
      };
      if (Waits(*Taken)) {
        auto Free = llvm::find_if(
            Queue, [&](size_t I) { return !IsProgram[I] && !Waits(I); });
        if (Free != Queue.end())
          Taken = Free;
      }
      size_t I = *Taken;
      Queue.erase(Taken);
      return I;
    };
    auto Worker = [&] {
      LintSession Session(Request); // clang-tidy contexts are not shareable.
      // The prefixes to prepare, then the units: every prefix is taken
      // before any unit, which may wait for its prefix.
      for (size_t T = NextPrefix++; T < PrefixGroups.size(); T = NextPrefix++)
        Request.Sharing->prepare(PrefixGroups[T]);
      while (std::optional<size_t> I = TakeUnit())
        LintOne(Session, *I);
    };
    runWorkers(Request.Jobs, PrefixGroups.size() + ToLint.size(), Worker);
    if (Request.Stats)
      Request.Stats->Linted += ToLint.size();
  }
  if (InProject)
    settleProjectFacts(Request, Files, UnitNames, Results, ResultsLock,
                       [&](LintSession &Session, size_t I) {
                         {
                           std::lock_guard<std::mutex> Lock(ProgressLock);
                           ++Total;
                         }
                         LintOne(Session, I);
                       });
  std::vector<Finding> All;
  for (FileResult &Result : Results)
    std::move(Result.Findings.begin(), Result.Findings.end(),
              std::back_inserter(All));
  sortAndDeduplicate(All);
  return All;
}

} // namespace torchtidy
