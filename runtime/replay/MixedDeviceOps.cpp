#include "MixedDeviceOps.h"

#include <torch/torch.h>

namespace torchtidy::replay {
namespace {

namespace F = torch::nn::functional;

constexpr Side A = Side::Accelerator;
constexpr Side H = Side::Host;

OperandSpec real(std::vector<int64_t> shape, Side side) {
  return {std::move(shape), Values::Real, side};
}
OperandSpec probability(std::vector<int64_t> shape, Side side) {
  return {std::move(shape), Values::Probability, side};
}
OperandSpec index(std::vector<int64_t> shape, int64_t bound, Side side) {
  return {std::move(shape), Values::Index, side, bound};
}
OperandSpec mask(std::vector<int64_t> shape, Side side) {
  return {std::move(shape), Values::Mask, side};
}

// Shapes are the smallest that keep each op's usual meaning: a batch of 2,
// 3 classes or features. Where an op takes more than two tensors, the host
// operand is the one the flagged code typically leaves behind (the target of
// a loss, the index of a lookup, the weights of a layer).
const std::vector<MixedDeviceOp> table = {
    {"add",
     {real({2, 3}, A), real({2, 3}, H)},
     [](const Operands &o) { return torch::add(o[0], o[1]); }},
    {"sub",
     {real({2, 3}, A), real({2, 3}, H)},
     [](const Operands &o) { return torch::sub(o[0], o[1]); }},
    {"mul",
     {real({2, 3}, A), real({2, 3}, H)},
     [](const Operands &o) { return torch::mul(o[0], o[1]); }},
    {"div",
     {real({2, 3}, A), real({2, 3}, H)},
     [](const Operands &o) { return torch::div(o[0], o[1]); }},
    {"matmul",
     {real({2, 3}, A), real({3, 4}, H)},
     [](const Operands &o) { return torch::matmul(o[0], o[1]); }},
    {"mm",
     {real({2, 3}, A), real({3, 4}, H)},
     [](const Operands &o) { return torch::mm(o[0], o[1]); }},
    {"bmm",
     {real({2, 2, 3}, A), real({2, 3, 4}, H)},
     [](const Operands &o) { return torch::bmm(o[0], o[1]); }},
    {"addmm",
     {real({2, 4}, A), real({2, 3}, A), real({3, 4}, H)},
     [](const Operands &o) { return torch::addmm(o[0], o[1], o[2]); }},
    // A module called on an input elsewhere than its weights.
    {"linear",
     {real({2, 3}, A), real({4, 3}, H), real({4}, H)},
     [](const Operands &o) { return F::linear(o[0], o[1], o[2]); }},
    {"conv2d",
     {real({1, 1, 5, 5}, A), real({2, 1, 3, 3}, H), real({2}, H)},
     [](const Operands &o) { return torch::conv2d(o[0], o[1], o[2]); }},
    {"cat",
     {real({2, 3}, A), real({2, 3}, H)},
     [](const Operands &o) {
       return torch::cat({o[0], o[1]});
     }},
    {"stack",
     {real({2, 3}, A), real({2, 3}, H)},
     [](const Operands &o) {
       return torch::stack({o[0], o[1]});
     }},
    {"where",
     {mask({2, 3}, A), real({2, 3}, A), real({2, 3}, H)},
     [](const Operands &o) { return torch::where(o[0], o[1], o[2]); }},
    {"nll_loss",
     {real({2, 3}, A), index({2}, 3, H)},
     [](const Operands &o) { return torch::nll_loss(o[0], o[1]); }},
    {"cross_entropy",
     {real({2, 3}, A), index({2}, 3, H)},
     [](const Operands &o) { return F::cross_entropy(o[0], o[1]); }},
    {"mse_loss",
     {real({2, 3}, A), real({2, 3}, H)},
     [](const Operands &o) { return torch::mse_loss(o[0], o[1]); }},
    {"l1_loss",
     {real({2, 3}, A), real({2, 3}, H)},
     [](const Operands &o) { return torch::l1_loss(o[0], o[1]); }},
    {"smooth_l1_loss",
     {real({2, 3}, A), real({2, 3}, H)},
     [](const Operands &o) { return torch::smooth_l1_loss(o[0], o[1]); }},
    {"binary_cross_entropy",
     {probability({2, 3}, A), probability({2, 3}, H)},
     [](const Operands &o) { return torch::binary_cross_entropy(o[0], o[1]); }},
    {"binary_cross_entropy_with_logits",
     {real({2, 3}, A), probability({2, 3}, H)},
     [](const Operands &o) {
       return torch::binary_cross_entropy_with_logits(o[0], o[1]);
     }},
    // An embedding table on the device looked up with host indices.
    {"embedding",
     {real({10, 4}, A), index({3}, 10, H)},
     [](const Operands &o) { return torch::embedding(o[0], o[1]); }},
    {"index_select",
     {real({4, 3}, A), index({2}, 4, H)},
     [](const Operands &o) { return torch::index_select(o[0], 0, o[1]); }},
    {"gather",
     {real({2, 3}, A), index({2, 2}, 3, H)},
     [](const Operands &o) { return torch::gather(o[0], 1, o[1]); }},
    {"masked_fill",
     {real({2, 3}, A), mask({2, 3}, H)},
     [](const Operands &o) { return torch::masked_fill(o[0], o[1], 0.0); }},
    {"eq",
     {real({2, 3}, A), real({2, 3}, H)},
     [](const Operands &o) { return torch::eq(o[0], o[1]); }},
    {"gt",
     {real({2, 3}, A), real({2, 3}, H)},
     [](const Operands &o) { return torch::gt(o[0], o[1]); }},
    {"lt",
     {real({2, 3}, A), real({2, 3}, H)},
     [](const Operands &o) { return torch::lt(o[0], o[1]); }},
    {"max",
     {real({2, 3}, A), real({2, 3}, H)},
     [](const Operands &o) { return torch::max(o[0], o[1]); }},
    {"min",
     {real({2, 3}, A), real({2, 3}, H)},
     [](const Operands &o) { return torch::min(o[0], o[1]); }},
    {"maximum",
     {real({2, 3}, A), real({2, 3}, H)},
     [](const Operands &o) { return torch::maximum(o[0], o[1]); }},
    {"minimum",
     {real({2, 3}, A), real({2, 3}, H)},
     [](const Operands &o) { return torch::minimum(o[0], o[1]); }},
    {"dot",
     {real({3}, A), real({3}, H)},
     [](const Operands &o) { return torch::dot(o[0], o[1]); }},
};

// Values are made on the CPU, then copied, so they are the same whatever the
// device (meta tensors hold none, but the copy still gives the right kind).
torch::Tensor makeOperand(const OperandSpec &spec, torch::Device device) {
  torch::Tensor values;
  switch (spec.values) {
  case Values::Real:
    values = torch::randn(spec.shape);
    break;
  case Values::Probability:
    values = torch::rand(spec.shape);
    break;
  case Values::Index:
    values = torch::randint(spec.bound, spec.shape, torch::kLong);
    break;
  case Values::Mask:
    values = torch::rand(spec.shape) > 0.5;
    break;
  }
  return values.to(device);
}

} // namespace

const std::vector<MixedDeviceOp> &mixedDeviceOps() { return table; }

const MixedDeviceOp *findMixedDeviceOp(std::string_view name) {
  for (const MixedDeviceOp &op : table)
    if (op.name == name)
      return &op;
  return nullptr;
}

Operands makeOperands(const MixedDeviceOp &op, c10::Device accelerator,
                      c10::Device host) {
  torch::manual_seed(0);
  Operands operands;
  for (const OperandSpec &spec : op.operands)
    operands.push_back(
        makeOperand(spec, spec.side == Side::Accelerator ? accelerator : host));
  return operands;
}

} // namespace torchtidy::replay
