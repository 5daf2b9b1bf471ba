// A copy to the host inside a helper or method that the loop calls once per
// iteration is a sync per iteration, reported at the call in the loop with a
// note at the copy. Shaped like the logging helpers and agents of public RL
// and tutorial code.
// RUN: %check_lint %s --checks='-*,libtorch-host-sync-in-loop' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>
#include <iostream>

static double running = 0;

void logLoss(const torch::Tensor &loss) {
  running += loss.item<double>();
}

// A helper of a helper.
void record(const torch::Tensor &loss, int step) {
  logLoss(loss);
}

struct Agent {
  torch::nn::Linear policy{4, 2};
  torch::Device device{torch::kCPU};
  int64_t act(const torch::Tensor &observation) {
    auto logits = policy(observation.to(device));
    return logits.argmax().item<int64_t>();
  }
  // Read once per logging interval: not a sync per iteration.
  void report(const torch::Tensor &loss) {
    std::cout << loss.item<double>() << "\n";
  }
};

void train(torch::nn::Linear model, std::vector<torch::data::Example<>> &loader,
           torch::Device device) {
  model->to(device);
  int step = 0;
  for (auto &batch : loader) {
    auto loss = torch::mse_loss(model(batch.data.to(device)),
                                batch.target.to(device));
    logLoss(loss);
    // CHECK: :[[@LINE-1]]:5: warning: '.item()' copies 'loss' (on 'device') to the host inside 'logLoss' and waits for the device in every iteration; accumulate on the device and read the value once per logging interval [libtorch-host-sync-in-loop]
    // CHECK: :[[@LINE-5]]:3: note: in this loop
    // CHECK: :13:19: note: '.item()' copies 'loss' to the host here, each time 'logLoss' runs
    record(loss.detach(), step);
    // CHECK: :[[@LINE-1]]:5: warning: '.item()' copies 'loss' (on 'device') to the host inside 'record' and waits
    // CHECK: :13:19: note: '.item()' copies 'loss' to the host here, each time 'record' runs
    ++step;
  }
}

void play(Agent &agent, std::vector<torch::Tensor> &observations) {
  for (auto &observation : observations) {
    auto action = agent.act(observation);
    // CHECK: :[[@LINE-1]]:25: warning: '.item()' copies 'logits.argmax()' (on 'device') to the host inside '.act()' and waits
  }
}

void negatives(torch::nn::Linear model, std::vector<torch::Tensor> &inputs,
               torch::Device device, Agent &agent) {
  model->to(device);
  int step = 0;
  for (auto &x : inputs) {
    auto out = model(x.to(device)).sum();
    // Once per logging interval.
    if (++step % 100 == 0)
      logLoss(out);
    // A host tensor: the copy is cheap.
    logLoss(torch::ones({}));
  }
  // After the loop.
  logLoss(model(inputs[0].to(device)).sum());
  agent.report(model(inputs[0].to(device)).sum());
}

// A pass over data reads its total once per pass: a loop that calls it is an
// epoch loop, and neither the pass nor a copy beside it is reported.
double evaluate(torch::nn::Linear model, std::vector<torch::Tensor> &inputs,
                torch::Device device) {
  auto total = torch::zeros({}, device);
  for (auto &x : inputs)
    total += model(x.to(device)).sum().detach();
  return total.item<double>();
}

void trainPass(torch::nn::Linear model, std::vector<torch::Tensor> &inputs,
               torch::Device device) {
  evaluate(model, inputs, device);
}

void epochs(torch::nn::Linear model, std::vector<torch::Tensor> &inputs,
            torch::Device device) {
  model->to(device);
  for (int epoch = 0; epoch < 10; ++epoch) {
    auto last = model(inputs[0].to(device)).sum();
    trainPass(model, inputs, device);
    logLoss(last);
    std::cout << evaluate(model, inputs, device) << last.item<double>() << "\n";
  }
}

// A loop over layers is not a pass over data: the batch loop that runs it
// is still the hot loop.
struct Stack : torch::nn::Module {
  Stack() {
    for (int i = 0; i < 3; ++i)
      layers.push_back(register_module("l" + std::to_string(i),
                                        torch::nn::Linear(4, 4)));
  }
  torch::Tensor forward(torch::Tensor x) {
    for (auto &layer : layers)
      x = layer(x);
    return x;
  }
  std::vector<torch::nn::Linear> layers;
};

void layersLoop(std::shared_ptr<Stack> net, std::vector<torch::Tensor> &inputs,
                torch::Device device) {
  net->to(device);
  for (auto &x : inputs) {
    auto out = net->forward(x.to(device)).sum();
    double value = out.item<double>();
    // CHECK: :[[@LINE-1]]:24: warning: '.item()' copies 'out' (on 'device') to the host and waits for the device in every iteration
  }
}
