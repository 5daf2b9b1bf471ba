//===--- UnregisteredModuleMemberCheck.h -
// libtorch-unregistered-module-member -*- C++ -*-===//
//
// A torch::nn::Module subclass with a submodule handle (torch::nn::Linear,
// any TORCH_MODULE holder, std::shared_ptr<SomeModule>) or a parameter-like
// tensor (one that requires grad) that it sets but never passes to
// register_module / register_parameter / register_buffer. Such a member is
// invisible to the module: `model->to(device)` leaves it on the host and
// `parameters()` never hands it to the optimizer. Fix-it: wrap the value
// assigned in `register_module("<member>", ...)` (or register_parameter).
// Also a new tensor assigned to a parameter a LibTorch layer registered
// (`fc->weight = ...`), which leaves the registered one in its place.
// Fix-it: `fc->weight.set_data(...)`.
// A class that registers none of several such members gets one finding,
// whose fix-its register them all; a class without forward() that hands a
// member out through an accessor is a holder, and that member is not judged.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_CHECKS_UNREGISTEREDMODULEMEMBERCHECK_H
#define TORCHTIDY_CHECKS_UNREGISTEREDMODULEMEMBERCHECK_H

#include "Analysis/ModuleMembers.h"
#include "Checks/LibTorchCheck.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"
#include <optional>
#include <string>

namespace torchtidy {

class UnregisteredModuleMemberCheck : public LibTorchCheck {
public:
  using LibTorchCheck::LibTorchCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override { ReportedFields.clear(); }

private:
  /// Why registering a member would change something; the order is the
  /// %select order of the findings' wording.
  enum class MemberKind {
    Parameter,
    SubmoduleWithWeights,
    ModeDependentSubmodule
  };
  struct UnregisteredMember {
    const clang::FieldDecl *Field;
    /// For an element of a member array of submodules: its index.
    std::optional<uint64_t> Element;
    const ModuleMember *Use;
    MemberKind Kind;
    /// A submodule whose class's constructor another file defines: that
    /// constructor, which registers the weights (a project fact).
    clang::SourceLocation WeightsRegisteredAt = {};

    /// As the findings name it: `fc`, `norm[2]`.
    std::string name() const;
    /// The name a fix-it registers it under: `fc`, `norm2`.
    std::string registrationName() const;
    /// The module class of a submodule.
    const clang::CXXRecordDecl *submoduleClass() const;
    /// What ReportedFields records.
    clang::SourceLocation::UIntTy reportKey() const;
  };
  /// The member, if leaving it unregistered changes what the program does.
  std::optional<UnregisteredMember>
  judgeMember(const ModuleMembers &Members, const clang::FieldDecl *Field,
              const ModuleMember &Use, std::optional<uint64_t> Element,
              clang::ASTContext &Ctx);
  void reportMember(const UnregisteredMember &Member,
                    const clang::SourceManager &Sources);
  /// The note at the other file's constructor a finding rests on, if any.
  void noteWeightsFact(const UnregisteredMember &Member);
  void reportClass(const clang::CXXRecordDecl *Class,
                   llvm::ArrayRef<UnregisteredMember> Members,
                   const clang::SourceManager &Sources);
  /// Wraps the member's value in register_module/register_parameter.
  void addRegistrationFixIt(clang::DiagnosticBuilder &Diag,
                            const UnregisteredMember &Member,
                            const clang::SourceManager &Sources);
  void reportRebinding(const clang::CXXOperatorCallExpr *Assignment,
                       const clang::MemberExpr *Member,
                       const clang::SourceManager &Sources);

  /// Fields (and elements, by where they are set) already reported: every
  /// instantiation of a class template has its own copy of each field, at
  /// the same location.
  llvm::DenseSet<clang::SourceLocation::UIntTy> ReportedFields;
};

} // namespace torchtidy

#endif // TORCHTIDY_CHECKS_UNREGISTEREDMODULEMEMBERCHECK_H
