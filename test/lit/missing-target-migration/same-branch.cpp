// A model and its input moved on the same paths are together on every path:
// `if (cuda_ok) { x = x.to(kCUDA); net->to(kCUDA); }` and nothing in the
// else (seen in a public AlphaZero port's test). A module is where the
// caller put it on the path that does not move it, not on the device of the
// path that does.
// RUN: %check_lint %s --checks='%bug_checks' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>

struct PolicyNetImpl : torch::nn::Module {
  PolicyNetImpl() { fc = register_module("fc", torch::nn::Linear(9, 9)); }
  torch::Tensor forward(torch::Tensor x) { return torch::softmax(fc(x), 1); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(PolicyNet);

// The shape: the network is handed in, and moved with its input in one
// branch.
torch::Tensor predict(PolicyNet net, const std::vector<float> &board,
                      bool cuda_ok) {
  auto x = torch::tensor(board).view({1, 9});
  if (cuda_ok) {
    x = x.to(torch::kCUDA);
    net->to(torch::kCUDA);
  }
  return net->forward(x);
}

// One step removed: a member network, a device variable, the input moved
// in its own branch under the same condition.
struct Player {
  PolicyNet net;
  torch::Tensor act(torch::Tensor state, bool use_gpu) {
    torch::Device device(torch::kCUDA);
    if (use_gpu)
      net->to(device);
    if (use_gpu)
      state = state.to(device);
    return net->forward(state);
  }
};

// Through a helper: the helper moves both, on the caller's condition.
void toGpu(PolicyNet &net, torch::Tensor &x) {
  net->to(torch::kCUDA);
  x = x.to(torch::kCUDA);
}
torch::Tensor viaHelper(PolicyNet net, torch::Tensor x, bool cuda_ok) {
  if (cuda_ok)
    toGpu(net, x);
  return net->forward(x);
}

// A model made here is on the CPU until moved: moved in one branch, its
// host input meets it on the GPU on that path.
torch::Tensor madeHere(bool cuda_ok) {
  PolicyNet net;
  auto x = torch::rand({1, 9});
  if (cuda_ok)
    net->to(torch::kCUDA);
  return net->forward(x);
  // CHECK: :[[@LINE-1]]:23: warning: input 'x' of 'net' is on the CPU (created by 'torch::rand' without a device) but the module is on 'cpu' or 'cuda'
}
