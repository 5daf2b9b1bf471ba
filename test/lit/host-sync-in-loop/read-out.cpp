// A loop that reads out a result computed before it (printing an output row
// by row, decoding generated ids one `.item()` each) waits for the device
// once: every later copy waits for nothing. It costs where the function
// runs once per step or frame, not in a demo that `main` runs once. Shaped
// like the chapter demos of a public book port that prints the logits of a
// GPT after one forward pass.
// RUN: %check_lint %s --checks='-*,libtorch-host-sync-in-loop' -- %torch_flags \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
#include <torch/torch.h>
#include <iostream>

struct TinyGptImpl : torch::nn::Module {
  TinyGptImpl() : head(register_module("head", torch::nn::Linear(8, 16))) {}
  torch::Tensor forward(torch::Tensor x) { return head->forward(x); }
  torch::nn::Linear head;
};
TORCH_MODULE(TinyGpt);

namespace {

// The shape: a demo that `main` calls once prints 2 x 4 rows of logits.
void demo_logits(TinyGpt &model, const torch::Device &device) {
  auto batch = torch::randn({2, 4, 8}).to(device);
  auto logits = model->forward(batch);
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t t = 0; t < 4; ++t)
      std::cout << logits.index({b, t, torch::indexing::Slice(0, 3)}) << "\n";
}

// One step removed: the loop runs over the output's own length, and `main`
// reaches the demo through another function it calls once.
void demo_decode(TinyGpt &model, const torch::Device &device) {
  auto out = model->forward(torch::randn({1, 6, 8}).to(device)).argmax(-1);
  std::vector<int64_t> ids;
  for (int64_t i = 0; i < out.size(1); ++i)
    ids.push_back(out.index({0, i}).item<int64_t>());
}
void run_chapter(TinyGpt &model, const torch::Device &device) {
  demo_logits(model, device);
  demo_decode(model, device);
}

// Through a helper: the decoding loop is a helper's, called once by a demo.
std::vector<int64_t> decode_ids(const torch::Tensor &generated) {
  std::vector<int64_t> ids;
  for (int64_t i = 0; i < generated.size(1); ++i)
    ids.push_back(generated[0][i].item<int64_t>());
  return ids;
}
void demo_generate(TinyGpt &model, const torch::Device &device) {
  auto generated =
      model->forward(torch::randn({1, 6, 8}).to(device)).argmax(-1);
  auto ids = decode_ids(generated);
}

// Positives: the same read-out where it repeats. Decoding once per prompt:
// each prompt's loop copies its ids one at a time.
std::vector<int64_t> decode_each(const torch::Tensor &generated) {
  std::vector<int64_t> ids;
  for (int64_t i = 0; i < generated.size(1); ++i)
    ids.push_back(generated[0][i].item<int64_t>());
  // CHECK: :[[@LINE-1]]:35: warning: '.item()' copies 'generated[0][i]' (on 'device') to the host and waits for the device in every iteration; copy the whole result to the host once, before the loop, and read its parts there [libtorch-host-sync-in-loop]
  // CHECK: :[[@LINE-3]]:3: note: in this loop
  // CHECK: read-out.cpp:[[@LINE+7]]:{{[0-9]+}}: note: 'generated' is on 'device' here: passed by 'serve'
  return ids;
}
void serve(TinyGpt &model, const torch::Device &device,
           const std::vector<torch::Tensor> &prompts) {
  for (const auto &prompt : prompts) {
    auto generated = model->forward(prompt.to(device)).argmax(-1);
    auto ids = decode_each(generated);
  }
}

// A loop in a function `main` runs once that does device work in every
// iteration is a step loop: the copy waits for that work each time.
void demo_steps(TinyGpt &model, const torch::Device &device) {
  auto batch = torch::randn({2, 4, 8}).to(device);
  for (int step = 0; step < 100; ++step) {
    auto logits = model->forward(batch);
    std::cout << logits.index({0, 0}) << "\n";
    // CHECK: :[[@LINE-1]]:15: warning: '<<' copies 'logits.index({0, 0})' (on 'device') to the host and waits for the device in every iteration; accumulate on the device
  }
}

// Reading parts by a tensor index gathers on the device, in every
// iteration of a loop over the batch.
void demo_gather(TinyGpt &model, const torch::Device &device) {
  auto logits = model->forward(torch::randn({2, 4, 8}).to(device));
  auto order = logits.sum(-1).argmax(1);
  for (int64_t b = 0; b < logits.size(0); ++b)
    std::cout << logits.index({b, order[b]}) << "\n";
  // CHECK: :[[@LINE-1]]:15: warning: '<<' copies 'logits.index({b, order[b]})' (on 'device') to the host and waits for the device in every iteration; accumulate on the device
}

} // namespace

// A demo function that other files may call: how often it runs is not
// known here, so its read-out loop is reported as before.
void print_logits(TinyGpt &model, const torch::Device &device) {
  auto logits = model->forward(torch::randn({2, 4, 8}).to(device));
  for (int64_t t = 0; t < logits.size(1); ++t)
    std::cout << logits.index({0, t}) << "\n";
  // CHECK: :[[@LINE-1]]:15: warning: '<<' copies 'logits.index({0, t})' (on 'device') to the host and waits for the device in every iteration; copy the whole result to the host once, before the loop, and read its parts there
}

int main() {
  torch::Device device =
      torch::cuda::is_available() ? torch::Device(torch::kCUDA, 0)
                                  : torch::Device(torch::kCPU);
  TinyGpt model;
  model->to(device);
  run_chapter(model, device);
  demo_generate(model, device);
  serve(model, device, {torch::randn({1, 6, 8})});
  demo_steps(model, device);
  demo_gather(model, device);
  // A read-out in `main` itself runs once, even where `main` runs a demo a
  // few times.
  for (int run = 0; run < 3; ++run)
    demo_logits(model, device);
  auto logits = model->forward(torch::randn({2, 4, 8}).to(device));
  for (int64_t t = 0; t < logits.size(1); ++t)
    std::cout << logits.index({1, t}) << "\n";
  // Per-class accuracy counted one sample at a time, in `main`, inside the
  // loop over the test batches: a read-out per batch.
  int correct[16] = {0};
  for (const auto &batch : std::vector<torch::Tensor>{torch::randn({4, 8})}) {
    auto hits = model->forward(batch.to(device)).argmax(1) == 3;
    for (int64_t i = 0; i < hits.size(0); ++i)
      correct[i] += hits[i].item<int>();
    // CHECK: :[[@LINE-1]]:29: warning: '.item()' copies 'hits[i]' (on 'device') to the host and waits for the device in every iteration; copy the whole result to the host once, before the loop, and read its parts there
    // CHECK: :[[@LINE-3]]:5: note: in this loop
  }
  return 0;
}
