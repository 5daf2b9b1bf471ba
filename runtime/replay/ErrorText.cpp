#include "Replay.h"

#include <c10/util/Exception.h>

namespace torchtidy::replay {

std::string firstLineOfError(const std::exception &error) {
  // what_without_backtrace() drops the backtrace but, for errors raised with
  // TORCH_CHECK, still ends with "Exception raised from <function> at
  // <file>:<line>" on the following lines: the first line is the message.
  const auto *c10Error = dynamic_cast<const c10::Error *>(&error);
  std::string_view text =
      c10Error ? c10Error->what_without_backtrace() : error.what();
  std::string_view firstLine = text.substr(0, text.find('\n'));
  constexpr std::string_view raisedFrom = "Exception raised from ";
  if (size_t at = firstLine.find(raisedFrom); at != std::string_view::npos)
    firstLine = firstLine.substr(0, at);
  while (!firstLine.empty() &&
         (firstLine.back() == ' ' || firstLine.back() == '\r'))
    firstLine.remove_suffix(1);
  return std::string(firstLine);
}

} // namespace torchtidy::replay
