//===--- CommandArguments.cpp - Options of the runtime commands -----------===//

#include "CommandArguments.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace torchtidy {

CommandArguments::CommandArguments(ArrayRef<const char *> Args,
                                   ArrayRef<StringRef> ValueOptions,
                                   ArrayRef<StringRef> Flags) {
  for (size_t I = 0; I < Args.size() && !Error; ++I) {
    StringRef Arg = Args[I];
    if (Arg == "--") {
      AfterDashDash.assign(Args.begin() + I + 1, Args.end());
      return;
    }
    auto [Name, Inline] = Arg.split('=');
    bool HasInline = Arg.contains('=');
    if (is_contained(Flags, Name) && !HasInline) {
      Values[Name].push_back("");
    } else if (is_contained(ValueOptions, Name)) {
      if (HasInline)
        Values[Name].push_back(Inline.str());
      else if (I + 1 < Args.size() && StringRef(Args[I + 1]) != "--")
        Values[Name].push_back(Args[++I]);
      else
        Error = "option '" + Name.str() + "' needs a value";
    } else if (Arg.starts_with("-")) {
      Error = "unknown option '" + Arg.str() + "'";
    } else {
      Error = "unexpected argument '" + Arg.str() + "'";
    }
  }
}

std::vector<std::string> CommandArguments::values(StringRef Name) const {
  auto It = Values.find(Name);
  return It == Values.end() ? std::vector<std::string>() : It->second;
}

std::optional<std::string> CommandArguments::value(StringRef Name) const {
  auto It = Values.find(Name);
  if (It == Values.end() || It->second.empty())
    return std::nullopt;
  return It->second.back();
}

bool CommandArguments::flag(StringRef Name) const { return Values.count(Name); }

} // namespace torchtidy
