//===--- TorchApi.h - What LibTorch APIs do to devices ----------*- C++ -*-===//
//
// The one place that knows LibTorch's API: which types are tensors, modules
// and devices, which calls create, move or combine tensors, and what each does
// to placement and autograd history. The analysis and the checks ask this
// model; none of them matches LibTorch names on its own.
//
// The model is split by facet of the API, one header each; this one includes
// them all and is the header that the analysis, the checks and the tools
// include:
//   TorchTypes.h    tensor, device, TensorOptions, container and tuple types;
//                   which declarations and headers are LibTorch's
//   Modules.h       torch::nn modules, holders, registration, containers, and
//                   what a module class implies (parameters, train/eval)
//   DataLoading.h   torch::data::Example and the user's dataset methods
//   Devices.h       device types, device arguments, transfers, host syncs,
//                   accelerator queries
//   Distributed.h   process groups, ranks, the process's current CUDA device
//   Errors.h        which calls throw LibTorch's errors, which handlers catch
//   PinnedMemory.h  pinned host memory, non_blocking copies, ops that allocate
//   TensorOps.h     how a call relates to placement (TorchCallKind), tensor
//                   operands, the 0-dim rule, in-place writes, no-grad guards
//   SourceText.h    how calls and expressions are written: call objects,
//                   callee names, source text, value-preserving wrappers
// What the facets share privately is in ModelDetail.h.
//
//===----------------------------------------------------------------------===//

#ifndef TORCHTIDY_MODEL_TORCHAPI_H
#define TORCHTIDY_MODEL_TORCHAPI_H

#include "Model/DataLoading.h"
#include "Model/Devices.h"
#include "Model/Distributed.h"
#include "Model/Errors.h"
#include "Model/Modules.h"
#include "Model/PinnedMemory.h"
#include "Model/SourceText.h"
#include "Model/TensorOps.h"
#include "Model/TorchTypes.h"

#endif // TORCHTIDY_MODEL_TORCHAPI_H
