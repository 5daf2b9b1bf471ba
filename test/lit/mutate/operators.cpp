// torchtidy-mutate: one mutant per site of each bug class, every one
// compiling, none where the edit would not inject a bug.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %torchtidy_mutate --out %t %s -- %torch_flags > %t/summary.txt 2> %t/dropped.txt
// RUN: FileCheck %s --check-prefix=SUMMARY --input-file=%t/summary.txt
// SUMMARY:      operator                  sites  mutants do-not-compile
// SUMMARY-NEXT: drop-target-migration         1        1              0
// SUMMARY-NEXT: drop-input-migration          1        1              0
// SUMMARY-NEXT: drop-model-migration          1        1              0
// SUMMARY-NEXT: tensor-accumulation           2        1              1
// SUMMARY-NEXT: drop-registration             2        2              0
// SUMMARY-NEXT: factory-drops-device          1        1              0
// SUMMARY-NEXT: drop-pin-memory               1        1              0
// RUN: FileCheck %s --check-prefix=DROPPED --input-file=%t/dropped.txt
// DROPPED: torchtidy-mutate: dropped {{.*}}operators.tensor-accumulation.2.cpp (does not compile: {{.*}})
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// FILES:      operators.drop-input-migration.1.cpp
// FILES-NEXT: operators.drop-model-migration.1.cpp
// FILES-NEXT: operators.drop-pin-memory.1.cpp
// FILES-NEXT: operators.drop-registration.1.cpp
// FILES-NEXT: operators.drop-registration.2.cpp
// FILES-NEXT: operators.drop-target-migration.1.cpp
// FILES-NEXT: operators.factory-drops-device.1.cpp
// FILES-NEXT: operators.tensor-accumulation.1.cpp
//
// Each mutant differs from this file only where its bug class says, and its
// last line labels it.
// RUN: diff %s %t/operators.drop-target-migration.1.cpp > %t/target.diff; test $? -eq 1
// RUN: FileCheck %s --check-prefix=TARGET --input-file=%t/target.diff
// TARGET:      <       auto target = batch.target.to(device);
// TARGET:      >       auto target = batch.target;
// TARGET:      > // torchtidy-mutant: drop-target-migration line [[#TARGETLINE:]] expects libtorch-missing-target-migration
// RUN: diff %s %t/operators.drop-input-migration.1.cpp > %t/input.diff; test $? -eq 1
// RUN: FileCheck %s --check-prefix=INPUT --input-file=%t/input.diff
// INPUT: >       auto data = batch.data;
// INPUT: > // torchtidy-mutant: drop-input-migration line {{[0-9]+}} expects libtorch-missing-target-migration
// RUN: diff %s %t/operators.drop-model-migration.1.cpp > %t/model.diff; test $? -eq 1
// RUN: FileCheck %s --check-prefix=MODEL --input-file=%t/model.diff
// MODEL:      <   model->to(device);
// MODEL-NEXT: ---
// MODEL-NEXT: >{{ *$}}
// RUN: diff %s %t/operators.tensor-accumulation.1.cpp > %t/accumulation.diff; test $? -eq 1
// RUN: FileCheck %s --check-prefix=ACCUMULATION --input-file=%t/accumulation.diff
// ACCUMULATION: >   torch::Tensor running_loss = torch::scalar_tensor(0.0);
// ACCUMULATION: >     running_loss = running_loss + loss;
// ACCUMULATION: >   std::printf("%f\n", running_loss.item<double>() / 10);
// ACCUMULATION: > // torchtidy-mutant: tensor-accumulation line {{[0-9]+}} expects libtorch-graph-retaining-accumulation
// RUN: diff %s %t/operators.drop-registration.1.cpp > %t/registration.diff; test $? -eq 1
// RUN: FileCheck %s --check-prefix=REGISTRATION --input-file=%t/registration.diff
// REGISTRATION: >     fc = torch::nn::Linear(4, 2);
// RUN: diff %s %t/operators.factory-drops-device.1.cpp > %t/factory.diff; test $? -eq 1
// RUN: FileCheck %s --check-prefix=FACTORY --input-file=%t/factory.diff
// FACTORY: >     auto mask = torch::ones({x.size(0), 2});
// RUN: diff %s %t/operators.drop-pin-memory.1.cpp > %t/pin.diff; test $? -eq 1
// RUN: FileCheck %s --check-prefix=PIN --input-file=%t/pin.diff
// PIN: >       auto pinned = batch.data;
//
// The mutants compile (the tool checked) and the checks find the injected
// bugs: each mutant has a finding of the check its label names.
// RUN: %torchtidy --no-cache %t/operators.drop-target-migration.1.cpp -- %torch_flags > %t/found-target.txt; test $? -eq 1
// RUN: FileCheck %s --check-prefix=FOUND-TARGET --input-file=%t/found-target.txt
// FOUND-TARGET: warning: 'target' is on the CPU {{.*}}[libtorch-missing-target-migration]
// RUN: %torchtidy --no-cache %t/operators.tensor-accumulation.1.cpp -- %torch_flags > %t/found-accumulation.txt; test $? -eq 1
// RUN: FileCheck %s --check-prefix=FOUND-ACCUMULATION --input-file=%t/found-accumulation.txt
// FOUND-ACCUMULATION: warning: 'running_loss' keeps 'loss'{{.*}}[libtorch-graph-retaining-accumulation]
//
// --no-compile-check writes the same candidates, the one that does not
// compile included, and drops nothing: its caller parses each mutant.
// RUN: rm -rf %t/unchecked
// RUN: %torchtidy_mutate --no-compile-check --out %t/unchecked %s -- %torch_flags > %t/unchecked.txt 2> %t/unchecked-dropped.txt
// RUN: FileCheck %s --check-prefix=UNCHECKED --input-file=%t/unchecked.txt
// UNCHECKED: tensor-accumulation           2        2              0
// RUN: test ! -s %t/unchecked-dropped.txt
// RUN: ls %t/unchecked | FileCheck %s --check-prefix=UNCHECKED-FILES
// UNCHECKED-FILES: operators.tensor-accumulation.1.cpp
// UNCHECKED-FILES-NEXT: operators.tensor-accumulation.2.cpp
// RUN: ! %clangxx -fsyntax-only %torch_flags %t/unchecked/operators.tensor-accumulation.2.cpp 2> /dev/null
//
// Bad usage: exit 2 with one line.
// RUN: %torchtidy_mutate --out %t/x --operators=no-such %s -- %torch_flags > %t/bad.txt 2>&1; test $? -eq 2
// RUN: FileCheck %s --check-prefix=BAD --input-file=%t/bad.txt
// BAD: torchtidy-mutate: unknown operator 'no-such' (see --list-operators)
#include <torch/torch.h>

#include <cstdio>

struct Net : torch::nn::Module {
  Net() {
    fc = register_module("fc", torch::nn::Linear(4, 2));
    register_module("extra", extra);
    // A parameter losing its registration is not a bug class of the tool.
    scale = register_parameter("scale", torch::ones({2}));
  }
  torch::Tensor forward(torch::Tensor x) {
    auto mask = torch::ones({x.size(0), 2}, x.options());
    // Options not taken from the input: not a site.
    auto noise = torch::zeros({2}, torch::kFloat);
    return fc->forward(x) * mask * scale + noise.sum();
  }
  torch::nn::Linear fc{nullptr};
  torch::nn::Linear extra{4, 4};
  torch::Tensor scale;
};

struct Rows : torch::data::datasets::Dataset<Rows> {
  explicit Rows(torch::Device device) : device(device) {}
  torch::data::Example<> get(size_t i) override {
    // Already a performance bug: removing the transfer would fix it.
    return {torch::ones({4}).to(device), torch::zeros({}).to(device)};
  }
  torch::optional<size_t> size() const override { return 8; }
  torch::Device device;
};

void keep(double &total) { total += 1; }

void train(std::vector<torch::data::Example<>> &loader, torch::Device device) {
  auto model = std::make_shared<Net>();
  model->to(device);
  double running_loss = 0.0;
  double kept = 0.0;
  double detached = 0.0;
  int64_t correct = 0;
  for (auto &batch : loader) {
    auto data = batch.data.to(device);
    auto target = batch.target.to(device);
    auto output = model->forward(data);
    auto loss = torch::mse_loss(output, target);
    loss.backward();
    running_loss += loss.item<double>();
    // Passed by reference below: as a tensor it would not compile.
    kept += loss.item<double>();
    // Detached, or a count: as tensors they would keep no graph.
    detached += loss.detach().item<double>();
    correct += output.argmax(1).eq(target).sum().item<int64_t>();
    {
      // Under a no-grad guard a tensor total would keep no graph either.
      torch::NoGradGuard no_grad;
      detached += torch::mse_loss(model->forward(data), target).item<double>();
    }
    {
      // So does GradMode::set_enabled(false), the thread's own setting.
      torch::autograd::GradMode::set_enabled(false);
      detached += torch::mse_loss(model->forward(data), target).item<double>();
      torch::autograd::GradMode::set_enabled(true);
    }
    // Where the device is not CUDA it is the CPU, and these copies copy
    // nothing: dropping one injects no bug, so none is a site.
    torch::Tensor staged = data;
    if (!device.is_cuda())
      staged = batch.data.to(device);
    const bool on_cuda = device.is_cuda();
    if (on_cuda) {
      staged = staged * 2;
    } else {
      staged = batch.target.to(device);
    }
    if (device.is_cpu())
      staged = (batch.data).to(device);
    auto pinned = batch.data.pin_memory();
    auto async = pinned.to(device, /*non_blocking=*/true);
    // Pinned, but copied synchronously: not a site.
    auto pinned_sync = batch.target.pin_memory();
    auto sync = pinned_sync.to(device);
  }
  keep(kept);
  std::printf("%f\n", running_loss / 10);
  std::printf("%f %ld\n", detached, static_cast<long>(correct));
}
