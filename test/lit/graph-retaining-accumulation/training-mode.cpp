// Modules start in training mode. In a file that never switches one to
// evaluation (no `eval()`, no `train(false)`), is_training() is always true:
// a policy whose forward() draws its action under NoGradGuard while training
// hands out no history, and keeping its actions retains no graph. Shaped
// like public RL agents that sample in forward(). Built with -DEVALUATES,
// the file does switch the policy to evaluation, where forward() returns the
// mean with its history, and keeping it is reported.
// RUN: %check_lint %s --checks='-*,libtorch-graph-retaining-accumulation' -- %torch_flags \
// RUN:   | FileCheck %s --allow-empty --check-prefix=TRAINING --implicit-check-not='warning:'
// RUN: %check_lint %s --checks='-*,libtorch-graph-retaining-accumulation' -- %torch_flags -DEVALUATES \
// RUN:   | FileCheck %s --check-prefix=EVALUATES --implicit-check-not='warning:'
#include <torch/torch.h>
// TRAINING-NOT: warning:

// The shape: the sample is returned from the training branch.
struct PolicyImpl : torch::nn::Module {
  PolicyImpl() { mu = register_module("mu", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor state) {
    auto mean = torch::tanh(mu->forward(state));
    if (is_training()) {
      torch::NoGradGuard no_grad;
      return mean + 0.1 * torch::randn_like(mean);
    }
    return mean;
  }
  torch::nn::Linear mu{nullptr};
};
TORCH_MODULE(Policy);

// One step removed: the evaluation branch is the negated test's.
struct NoisyPolicyImpl : torch::nn::Module {
  NoisyPolicyImpl() { mu = register_module("mu", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor state) {
    auto mean = mu->forward(state);
    if (!is_training())
      return mean;
    torch::NoGradGuard no_grad;
    auto noise = torch::randn_like(mean) * 0.2;
    return (mean + noise).clamp(-1, 1);
  }
  torch::nn::Linear mu{nullptr};
};
TORCH_MODULE(NoisyPolicy);

// Through a helper that runs the policy.
torch::Tensor act(Policy &policy, const torch::Tensor &state) {
  return policy->forward(state);
}

int main() {
  Policy policy;
  NoisyPolicy noisy;
#ifdef EVALUATES
  policy->eval();
  noisy->train(false);
#endif
  std::vector<torch::Tensor> actions, noisy_actions, helper_actions;
  for (int step = 0; step < 1000; ++step) {
    auto state = torch::rand({4});
    actions.push_back(policy->forward(state));
    // EVALUATES: :[[@LINE-1]]:13: warning: 'actions' keeps 'policy->forward(state)', which carries autograd history
    noisy_actions.push_back(noisy(state));
    // EVALUATES: :[[@LINE-1]]:19: warning: 'noisy_actions' keeps 'noisy(state)', which carries autograd history
    helper_actions.push_back(act(policy, state));
    // EVALUATES: :[[@LINE-1]]:20: warning: 'helper_actions' keeps 'act(policy, state)', which carries autograd history
  }
}
