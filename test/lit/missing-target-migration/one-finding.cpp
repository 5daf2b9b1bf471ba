// One site, one finding: a missing migration that explains a device mix is
// reported by libtorch-missing-target-migration alone...
// RUN: %check_lint %s --checks='-*,libtorch-missing-target-migration,libtorch-mixed-device-operands' \
// RUN:   -- %torch_flags | FileCheck %s --check-prefix=BOTH --implicit-check-not='warning:'
// ...and by libtorch-mixed-device-operands when the migration check is off.
// RUN: %check_lint %s --checks='-*,libtorch-mixed-device-operands' \
// RUN:   -- %torch_flags | FileCheck %s --check-prefix=MIXED --implicit-check-not='warning:'
#include <torch/torch.h>

void loop(std::vector<torch::data::Example<>> &batches, torch::Device device) {
  torch::nn::Linear model(4, 2);
  model->to(device);
  for (auto &batch : batches) {
    auto output = model(batch.data.to(device));
    auto loss = torch::mse_loss(output, batch.target);
    // BOTH: :[[@LINE-1]]:41: warning: 'batch.target' is on the CPU {{.*}} [libtorch-missing-target-migration]
    // MIXED: :[[@LINE-2]]:17: warning: 'batch.target' is on the CPU (it comes from the data-loader batch) but 'output' is on 'device' (output of 'model'); 'torch::mse_loss' needs all its tensor operands on one device [libtorch-mixed-device-operands]
  }
}
