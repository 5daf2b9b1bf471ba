//===- StackCapture.cpp - Raw call stacks and the modules they are in -----===//

#include "StackCapture.h"

#include <algorithm>
#include <cstring>
#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>

namespace torchtidy::rt {

namespace {
struct CodeRange {
  uintptr_t Begin, End;
};

/// Executable segments of the shim and of LibTorch, filled once at load and
/// read without a lock afterwards.
std::vector<CodeRange> &skippedCode() {
  static auto *Ranges = new std::vector<CodeRange>;
  return *Ranges;
}

/// The shim's own executable segments, a subset of skippedCode().
std::vector<CodeRange> &shimCode() {
  static auto *Ranges = new std::vector<CodeRange>;
  return *Ranges;
}

bool isLibTorchModule(const char *Path) {
  const char *Slash = std::strrchr(Path, '/');
  const char *Base = Slash ? Slash + 1 : Path;
  // libtorch.so, libtorch_cpu.so, libtorch_cuda.so, libc10.so, libc10_cuda.so
  // ... but not the shim, libtorchtidy_rt.so, found by address instead.
  if (std::strncmp(Base, "libtorchtidy", 12) == 0)
    return false;
  return std::strncmp(Base, "libtorch", 8) == 0 ||
         std::strncmp(Base, "libc10", 6) == 0;
}

int collectSkippedCode(struct dl_phdr_info *Info, size_t, void *) {
  auto Self = reinterpret_cast<uintptr_t>(&collectSkippedCode);
  bool IsShim = false;
  for (int I = 0; I < Info->dlpi_phnum && !IsShim; ++I) {
    const ElfW(Phdr) &Header = Info->dlpi_phdr[I];
    uintptr_t Begin = Info->dlpi_addr + Header.p_vaddr;
    if (Header.p_type == PT_LOAD && Self >= Begin &&
        Self < Begin + Header.p_memsz)
      IsShim = true;
  }
  if (!IsShim && !(Info->dlpi_name && isLibTorchModule(Info->dlpi_name)))
    return 0;
  for (int I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &Header = Info->dlpi_phdr[I];
    if (Header.p_type != PT_LOAD || !(Header.p_flags & PF_X))
      continue;
    uintptr_t Begin = Info->dlpi_addr + Header.p_vaddr;
    skippedCode().push_back({Begin, Begin + Header.p_memsz});
    if (IsShim)
      shimCode().push_back({Begin, Begin + Header.p_memsz});
  }
  return 0;
}

bool isIn(const std::vector<CodeRange> &Ranges, void *Address) {
  auto Pc = reinterpret_cast<uintptr_t>(Address);
  for (const CodeRange &Range : Ranges)
    if (Pc >= Range.Begin && Pc < Range.End)
      return true;
  return false;
}

/// Frames the shim and LibTorch may take above the program's first frame:
/// the callback, RecordFunction, the dispatcher, autograd and composite ops.
constexpr unsigned kLibraryFrameBudget = 64;
} // namespace

uint64_t RawStack::hash() const {
  uint64_t Hash = 1469598103934665603ULL; // FNV-1a over the addresses
  for (unsigned I = 0; I < Size; ++I) {
    Hash ^= Pcs[I];
    Hash *= 1099511628211ULL;
  }
  return Hash;
}

void initStackCapture() {
  dl_iterate_phdr(&collectSkippedCode, nullptr);
  void *Warm[4];
  backtrace(Warm, 4);
}

void captureStack(RawStack &Stack, unsigned Depth) {
  void *Buffer[kLibraryFrameBudget + kMaxStackDepth];
  Depth = std::min(Depth, kMaxStackDepth);
  int Count = backtrace(Buffer, static_cast<int>(kLibraryFrameBudget + Depth));
  // backtrace() may be a wrapper another preloaded library interposes (the
  // sanitizer runtimes do): the frames before the shim's first are its own.
  int First = 0;
  while (First < Count && !isIn(shimCode(), Buffer[First]))
    ++First;
  if (First == Count)
    First = 0;
  while (First < Count && isIn(skippedCode(), Buffer[First]))
    ++First;
  if (First == Count)
    First = 0; // all library frames: keep them rather than nothing
  Stack.Size = 0;
  for (int I = First; I < Count && Stack.Size < Depth; ++I)
    Stack.Pcs[Stack.Size++] = reinterpret_cast<uintptr_t>(Buffer[I]);
}

std::vector<Frame> ModuleTable::resolve(const std::vector<uintptr_t> &Pcs) {
  std::vector<Frame> Frames;
  Frames.reserve(Pcs.size());
  std::lock_guard<std::mutex> Guard(Lock);
  for (uintptr_t Pc : Pcs) {
    Dl_info Info;
    struct link_map *Map = nullptr;
    // Pc - 1: a return address can be one past the end of its function (a
    // call to a noreturn function), even past the end of its module.
    if (Pc == 0 ||
        !dladdr1(reinterpret_cast<void *>(Pc - 1), &Info,
                 reinterpret_cast<void **>(&Map), RTLD_DL_LINKMAP) ||
        !Map) {
      Frames.push_back({idFor("[unknown]"), Pc});
      continue;
    }
    // The main program's link_map has an empty name.
    std::string Path = Map->l_name && *Map->l_name ? Map->l_name : ProgramPath;
    Frames.push_back({idFor(Path), Pc - Map->l_addr});
  }
  return Frames;
}

std::vector<std::string> ModuleTable::paths() {
  std::lock_guard<std::mutex> Guard(Lock);
  return Paths;
}

uint32_t ModuleTable::idFor(const std::string &Path) {
  auto Found = Ids.find(Path);
  if (Found != Ids.end())
    return Found->second;
  auto Id = static_cast<uint32_t>(Paths.size());
  Paths.push_back(Path);
  Ids.emplace(Path, Id);
  return Id;
}

} // namespace torchtidy::rt
