//===--- DataLoading.cpp - LibTorch's data pipeline -----------------------===//

#include "Model/DataLoading.h"

#include "Model/ModelDetail.h"
#include "Model/TorchTypes.h"

using namespace clang;

namespace torchtidy {
using namespace model_detail;

bool isBatchExampleType(QualType T) {
  return isRecordNamed(recordOf(T), "torch::data::Example");
}

std::optional<unsigned> exampleMemberIndex(const MemberExpr *Member) {
  const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
  if (!Field || !Field->getIdentifier() ||
      !isBatchExampleType(Member->getBase()->getType()))
    return std::nullopt;
  if (Field->getName() == "data")
    return 0;
  if (Field->getName() == "target")
    return 1;
  return std::nullopt;
}

bool isDataPipelineMethod(const CXXMethodDecl *Method) {
  if (!Method || isInLibTorchNamespace(Method))
    return false;
  llvm::StringRef Name = plainName(Method);
  const CXXRecordDecl *Class = Method->getParent();
  if (Name == "get" || Name == "get_batch")
    return isOrDerivesFrom(Class, "torch::data::datasets::BatchDataset");
  if (Name == "apply" || Name == "apply_batch")
    return isOrDerivesFrom(Class, "torch::data::transforms::BatchTransform");
  // TensorTransform's apply() hands each example's tensor to operator().
  if (Method->getOverloadedOperator() == OO_Call)
    return isOrDerivesFrom(Class, "torch::data::transforms::TensorTransform");
  return false;
}

} // namespace torchtidy
