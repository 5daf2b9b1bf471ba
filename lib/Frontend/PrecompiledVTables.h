//===--- PrecompiledVTables.h - Header vtables a lint never needs -*- C++ -*-=//
//
// Against a precompiled <torch/torch.h>, parsing even an empty file took
// ~2 s, 1.8 s of it Sema defining, at the end of the TU, the vtables that
// LibTorch's own inline code had used: the precompiled header records those
// uses (248 for torch/torch.h) and every TU that loads it instantiates every
// virtual member of each of those class template specializations. A compiler
// must, to emit the vtables; a lint that walks only the user's code never
// looks at them (0.27 s for that file without them).
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_FRONTEND_PRECOMPILEDVTABLES_H
#define TORCHTIDY_FRONTEND_PRECOMPILEDVTABLES_H

namespace clang {
class FrontendAction;
} // namespace clang

namespace torchtidy {

/// For an action about to parse (from its ExecuteAction, before the base
/// class's): creates the Sema as ASTFrontendAction would, and leaves
/// undefined the vtables that the TU's precompiled header recorded as used,
/// of classes declared in system headers. The user's headers' classes, and
/// the specializations the TU's own code instantiates, keep their vtables.
/// Without a precompiled header it only creates the Sema. Never for a
/// compile that emits code: the vtables would be missing from it.
void leavePrecompiledSystemVTablesUndefined(clang::FrontendAction &Action);

} // namespace torchtidy

#endif // TORCHTIDY_FRONTEND_PRECOMPILEDVTABLES_H
