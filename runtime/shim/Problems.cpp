//===- Problems.cpp - What the shim could not do --------------------------===//

#include "Problems.h"

#include <algorithm>
#include <mutex>
#include <unistd.h>

namespace torchtidy::rt {

namespace {
struct ProblemList {
  std::mutex Lock;
  std::vector<std::string> Sentences;
};

// Never destroyed: problems can still be reported from exit handlers that run
// after static destructors.
ProblemList &problemList() {
  static ProblemList *List = new ProblemList;
  return *List;
}
} // namespace

void warn(const std::string &Sentence) {
  std::string Line = "torchtidy-rt: " + Sentence + "\n";
  const char *Data = Line.data();
  size_t Left = Line.size();
  while (Left > 0) {
    ssize_t Written = ::write(STDERR_FILENO, Data, Left);
    if (Written <= 0)
      return; // stderr closed: nothing else to do
    Data += Written;
    Left -= static_cast<size_t>(Written);
  }
}

void reportProblem(const std::string &Sentence) {
  ProblemList &List = problemList();
  {
    std::lock_guard<std::mutex> Guard(List.Lock);
    if (std::find(List.Sentences.begin(), List.Sentences.end(), Sentence) !=
        List.Sentences.end())
      return;
    List.Sentences.push_back(Sentence);
  }
  warn(Sentence);
}

std::vector<std::string> problems() {
  ProblemList &List = problemList();
  std::lock_guard<std::mutex> Guard(List.Lock);
  return List.Sentences;
}

} // namespace torchtidy::rt
