//===- ReportWriter.cpp - The report's JSON, written atomically -----------===//

#include "ReportWriter.h"

#include <torch/version.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

// TORCH_VERSION is in every torch/version.h so far; should one lack it,
// the number is rebuilt from its parts.
#ifndef TORCH_VERSION
#define TORCHTIDY_STRINGIFY_(X) #X
#define TORCHTIDY_STRINGIFY(X) TORCHTIDY_STRINGIFY_(X)
#define TORCH_VERSION                                                          \
  TORCHTIDY_STRINGIFY(TORCH_VERSION_MAJOR)                                     \
  "." TORCHTIDY_STRINGIFY(TORCH_VERSION_MINOR) "." TORCHTIDY_STRINGIFY(        \
      TORCH_VERSION_PATCH)
#endif

namespace torchtidy::rt {

namespace {
void appendHex(std::string &Out, uintptr_t Value) {
  char Buffer[32];
  std::snprintf(Buffer, sizeof(Buffer), "\"0x%" PRIxPTR "\"", Value);
  Out += Buffer;
}

/// Length of the valid UTF-8 sequence at \p Text[0], or 0.
size_t utf8Length(std::string_view Text) {
  auto Byte = [&](size_t I) { return static_cast<unsigned char>(Text[I]); };
  unsigned char Lead = Byte(0);
  size_t Length;
  uint32_t Min;
  if (Lead >= 0xC2 && Lead <= 0xDF) {
    Length = 2;
    Min = 0x80;
  } else if (Lead >= 0xE0 && Lead <= 0xEF) {
    Length = 3;
    Min = 0x800;
  } else if (Lead >= 0xF0 && Lead <= 0xF4) {
    Length = 4;
    Min = 0x10000;
  } else {
    return 0;
  }
  if (Text.size() < Length)
    return 0;
  uint32_t Code = Lead & (0x7F >> Length);
  for (size_t I = 1; I < Length; ++I) {
    if ((Byte(I) & 0xC0) != 0x80)
      return 0;
    Code = (Code << 6) | (Byte(I) & 0x3F);
  }
  if (Code < Min || Code > 0x10FFFF || (Code >= 0xD800 && Code <= 0xDFFF))
    return 0;
  return Length;
}

void appendOperands(std::string &Out, const std::vector<Operand> &Operands) {
  Out += "[";
  for (size_t I = 0; I < Operands.size(); ++I) {
    const Operand &Op = Operands[I];
    if (I)
      Out += ",\n                  ";
    Out += "{\"device\": ";
    appendJsonString(Out, Op.Device);
    Out += ", \"dtype\": ";
    appendJsonString(Out, Op.DType);
    Out += ", \"shape\": [";
    for (size_t D = 0; D < Op.Shape.size(); ++D) {
      if (D)
        Out += ", ";
      Out += std::to_string(Op.Shape[D]);
    }
    Out += "]}";
  }
  Out += "]";
}

void appendFrames(std::string &Out, const std::vector<Frame> &Frames) {
  Out += "[";
  for (size_t I = 0; I < Frames.size(); ++I) {
    if (I)
      Out += ",\n                ";
    Out +=
        "{\"module\": " + std::to_string(Frames[I].Module) + ", \"offset\": ";
    appendHex(Out, Frames[I].Offset);
    Out += "}";
  }
  Out += "]";
}

void appendEnd(std::string &Out, const EndState &End) {
  switch (End.Kind) {
  case EndState::How::Running:
    Out += "{\"how\": \"running\"}";
    return;
  case EndState::How::Exit:
    Out += "{\"how\": \"exit\", \"code\": " + std::to_string(End.Code) + "}";
    return;
  case EndState::How::Exception:
    Out += "{\"how\": \"exception\", \"what\": ";
    appendJsonString(Out, End.What);
    Out += "}";
    return;
  case EndState::How::Signal:
    Out +=
        "{\"how\": \"signal\", \"signal\": " + std::to_string(End.Code) + "}";
    return;
  }
}
} // namespace

void appendJsonString(std::string &Out, std::string_view Text) {
  static const char Hex[] = "0123456789abcdef";
  Out += '"';
  for (size_t I = 0; I < Text.size();) {
    auto C = static_cast<unsigned char>(Text[I]);
    if (C >= 0x80) {
      size_t Length = utf8Length(Text.substr(I));
      if (Length) {
        Out.append(Text.data() + I, Length);
        I += Length;
      } else {
        Out += "\\ufffd";
        ++I;
      }
      continue;
    }
    ++I;
    switch (C) {
    case '"':
      Out += "\\\"";
      break;
    case '\\':
      Out += "\\\\";
      break;
    case '\n':
      Out += "\\n";
      break;
    case '\r':
      Out += "\\r";
      break;
    case '\t':
      Out += "\\t";
      break;
    default:
      if (C < 0x20 || C == 0x7F) {
        Out += "\\u00";
        Out += Hex[C >> 4];
        Out += Hex[C & 0xF];
      } else {
        Out += static_cast<char>(C);
      }
    }
  }
  Out += '"';
}

ReportBuilder::ReportBuilder(int Pid, const std::string &Program,
                             const EndState &End) {
  Head = "{\n  \"format\": \"torchtidy-runtime\",\n  \"version\": 1,\n";
  Head += "  \"pid\": " + std::to_string(Pid) + ",\n  \"program\": ";
  appendJsonString(Head, Program);
  Head += ",\n  \"libtorch\": ";
  appendJsonString(Head, TORCH_VERSION);
  Head += ",\n  \"end\": ";
  appendEnd(Head, End);
  Head += ",\n";
}

void ReportBuilder::addSite(const Site &Entry) {
  std::string &Out = Events;
  Out += FirstEvent ? "\n" : ",\n";
  FirstEvent = false;
  Out += "    {\"kind\": \"";
  Out += eventKindName(Entry.Kind);
  Out += "\", \"op\": ";
  appendJsonString(Out, Entry.Op);
  Out += ", \"count\": " + std::to_string(Entry.Count) + ",\n";
  if (Entry.Kind == EventKind::GraphGrowth) {
    const GrowthStats &Growth = Entry.Growth;
    uint64_t Iterations = Growth.LastEpoch - Growth.FirstEpoch;
    double PerIteration =
        Iterations ? static_cast<double>(Growth.LastDepth - Growth.FirstDepth) /
                         static_cast<double>(Iterations)
                   : 0.0;
    char Rate[32];
    std::snprintf(Rate, sizeof(Rate), "%.3g", PerIteration);
    Out += "     \"depth\": {\"first\": " + std::to_string(Growth.FirstDepth) +
           ", \"last\": " + std::to_string(Growth.LastDepth) +
           "}, \"iterations\": " + std::to_string(Iterations) +
           ",\n     \"growth_per_iteration\": " + Rate + ",\n";
  }
  Out += "     \"operands\": ";
  appendOperands(Out, Entry.Operands);
  Out += ",\n     \"frames\": ";
  appendFrames(Out, Entry.Frames);
  Out += "}";
}

std::string ReportBuilder::finish(const std::vector<std::string> &Modules,
                                  uint64_t DroppedEvents,
                                  const std::vector<std::string> &Problems) {
  std::string Out = std::move(Head);
  Out += "  \"modules\": [";
  for (size_t I = 0; I < Modules.size(); ++I) {
    Out += I ? ",\n    " : "\n    ";
    Out += "{\"id\": " + std::to_string(I) + ", \"path\": ";
    appendJsonString(Out, Modules[I]);
    Out += "}";
  }
  Out += Modules.empty() ? "],\n" : "\n  ],\n";
  Out += "  \"events\": [";
  Out += Events;
  Out += FirstEvent ? "],\n" : "\n  ],\n";
  Out += "  \"dropped_events\": " + std::to_string(DroppedEvents) + ",\n";
  Out += "  \"problems\": [";
  for (size_t I = 0; I < Problems.size(); ++I) {
    Out += I ? ",\n    " : "\n    ";
    appendJsonString(Out, Problems[I]);
  }
  Out += Problems.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return Out;
}

bool writeFileAtomically(const std::string &Path, const std::string &Text,
                         std::string &Error) {
  // One temporary name per process: writes within the process are
  // serialized by the caller, and a forked child never writes.
  std::string Temporary = Path + ".tmp." + std::to_string(::getpid());
  int Fd =
      ::open(Temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (Fd < 0) {
    Error = std::strerror(errno);
    return false;
  }
  const char *Data = Text.data();
  size_t Left = Text.size();
  while (Left > 0) {
    ssize_t Written = ::write(Fd, Data, Left);
    if (Written < 0 && errno == EINTR)
      continue;
    if (Written <= 0) {
      Error = std::strerror(errno);
      ::close(Fd);
      ::unlink(Temporary.c_str());
      return false;
    }
    Data += Written;
    Left -= static_cast<size_t>(Written);
  }
  if (::close(Fd) != 0 || ::rename(Temporary.c_str(), Path.c_str()) != 0) {
    Error = std::strerror(errno);
    ::unlink(Temporary.c_str());
    return false;
  }
  return true;
}

} // namespace torchtidy::rt
