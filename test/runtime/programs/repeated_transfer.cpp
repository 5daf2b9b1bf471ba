// Host-to-device copies in a loop of 3 iterations, to the device argv[1]
// names ("meta" stands in for "cuda"). Copied again, unchanged: the weights
// (the shape), a transposed view of the scale (one step removed) and the bias
// through a helper; the model's parameters, copied to the device in every
// iteration as data_parallel's replicate() does (Cloneable::clone copies
// each with `to(device)`), although the "optimizer" changes them in between.
// Not copied again: a staging buffer refilled before each copy, and a tensor
// made anew in each iteration.
#include <torch/torch.h>

#include <iostream>

torch::Tensor onDevice(const torch::Tensor &host, torch::Device device) {
  return host.to(device);
}

std::vector<torch::Tensor> replicate(const torch::nn::Linear &model,
                                     torch::Device device) {
  std::vector<torch::Tensor> replica;
  for (const torch::Tensor &parameter : model->parameters())
    replica.push_back(parameter.to(device));
  return replica;
}

int main(int argc, char **argv) {
  torch::Device device(argc > 1 ? argv[1] : "cpu");
  torch::Tensor weights = torch::rand({4, 4});
  torch::Tensor scale = torch::rand({4, 4});
  torch::Tensor bias = torch::rand({4});
  torch::Tensor staging = torch::empty({4, 4});
  torch::nn::Linear model(4, 4);

  std::vector<torch::Tensor> outputs;
  for (int step = 0; step < 3; ++step) {
    torch::Tensor w = weights.to(device);
    torch::Tensor s = scale.t().to(device);
    torch::Tensor b = onDevice(bias, device);
    staging.copy_(torch::rand({4, 4}));
    torch::Tensor batch = staging.to(device);
    torch::Tensor noise = torch::rand({4, 4}).to(device);
    std::vector<torch::Tensor> replica = replicate(model, device);
    {
      torch::NoGradGuard noGrad;
      model->weight.add_(0.01);
    }
    outputs.push_back(batch.mm(w * s) + b + noise);
  }
  std::cout << outputs.size() << " outputs of " << outputs.back().sizes()
            << "\n";
  return 0;
}
