//===--- DataLoading.h - LibTorch's data pipeline ---------------*- C++ -*-===//
//
// The data-loading facet of the LibTorch model: torch::data::Example and its
// data and target members, and the user's Dataset and transform methods that
// produce examples. Batches from a data loader start on the host, and code in
// a dataset runs once per example (what the transfer-in-dataset check reads).
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_MODEL_DATALOADING_H
#define TORCHTIDY_MODEL_DATALOADING_H

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Type.h"
#include <optional>

namespace torchtidy {

bool isBatchExampleType(clang::QualType T);
/// For `ex.data` / `ex.target` on a torch::data::Example: 0 or 1.
std::optional<unsigned> exampleMemberIndex(const clang::MemberExpr *Member);

/// The user-defined Dataset or transform method that produces examples:
/// get()/get_batch() of a torch::data::datasets::BatchDataset subclass,
/// apply()/apply_batch() of a torch::data::transforms::BatchTransform one,
/// operator() of a TensorTransform.
bool isDataPipelineMethod(const clang::CXXMethodDecl *Method);

} // namespace torchtidy

#endif // TORCHTIDY_MODEL_DATALOADING_H
