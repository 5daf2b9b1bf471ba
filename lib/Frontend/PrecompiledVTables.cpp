//===--- PrecompiledVTables.cpp - Header vtables a lint never needs -------===//

#include "Frontend/PrecompiledVTables.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Sema/ExternalSemaSource.h"
#include "clang/Sema/Sema.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Casting.h"

using namespace clang;

namespace torchtidy {

namespace {

/// Sema reads the vtable uses of the precompiled header through its external
/// sources, the header's reader and this one, in the order they were added.
/// This one asks the reader itself (which hands its uses out once) and drops
/// the system headers' classes from whatever has been read, so the order
/// does not matter.
class SystemVTableUseFilter : public ExternalSemaSource {
public:
  SystemVTableUseFilter(ExternalSemaSource &Reader,
                        const SourceManager &Sources)
      : Reader(Reader), Sources(Sources) {}

  void ReadUsedVTables(SmallVectorImpl<ExternalVTableUse> &Uses) override {
    Reader.ReadUsedVTables(Uses);
    llvm::erase_if(Uses, [&](const ExternalVTableUse &Use) {
      return Sources.isInSystemHeader(Use.Record->getLocation());
    });
  }

private:
  ExternalSemaSource &Reader;
  const SourceManager &Sources;
};

} // namespace

void leavePrecompiledSystemVTablesUndefined(FrontendAction &Action) {
  CompilerInstance &Compiler = Action.getCompilerInstance();
  if (!Compiler.hasPreprocessor() || !Compiler.hasASTContext())
    return; // ASTFrontendAction parses nothing either.
  if (!Compiler.hasSema())
    Compiler.createSema(Action.getTranslationUnitKind(),
                        /*CompletionConsumer=*/nullptr);
  auto *Reader = llvm::dyn_cast_or_null<ExternalSemaSource>(
      Compiler.getASTContext().getExternalSource());
  if (!Reader)
    return; // No precompiled header: every vtable was used in this parse.
#if LLVM_VERSION_MAJOR >= 22
  Compiler.getSema().addExternalSource(
      llvm::makeIntrusiveRefCnt<SystemVTableUseFilter>(
          *Reader, Compiler.getSourceManager()));
#else
  // Reference-counted: Sema's multiplexing source keeps it alive.
  Compiler.getSema().addExternalSource(
      new SystemVTableUseFilter(*Reader, Compiler.getSourceManager()));
#endif
}

} // namespace torchtidy
