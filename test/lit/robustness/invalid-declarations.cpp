// Code that clang could not compile says nothing: a class that an error made
// invalid (here a member of a type whose header is missing, as in a public
// detection project built without OpenCV's headers) has its constructor's
// body dropped, so its registrations cannot be seen. No finding rests on
// it; the error itself is still reported, with torchtidy's exit status 2.
// RUN: %clang_tidy %s --checks='%bug_checks' -- %torch_flags > %t.out 2>&1; test $? -eq 1
// RUN: FileCheck %s --input-file=%t.out --implicit-check-not='warning:'
// RUN: %torchtidy %s -- %torch_flags > %t.driver 2>&1; test $? -eq 2
// RUN: FileCheck %s --input-file=%t.driver --implicit-check-not='warning:'
// CHECK: error: 'opencv2/opencv.hpp' file not found
#include <torch/torch.h>
#include <opencv2/opencv.hpp>

struct DetectorImpl : torch::nn::Module {
  DetectorImpl()
      : backbone(register_module("backbone", torch::nn::Conv2d(3, 16, 3))),
        neck(register_module("neck", torch::nn::Conv2d(16, 16, 1))),
        head(register_module("head", torch::nn::Linear(16, 4))),
        drop(register_module("drop", torch::nn::Dropout(0.1))) {}
  torch::Tensor forward(torch::Tensor x) {
    return head(drop(neck(backbone(x)).mean({2, 3})));
  }
  cv::Mat preview;
  torch::nn::Conv2d backbone, neck;
  torch::nn::Linear head;
  torch::nn::Dropout drop;
};

// A function whose body an error touches: what it does to devices is
// unknown, and so is what its callers get.
torch::Tensor preprocess(const cv::Mat &image, torch::Device device) {
  auto x = torch::from_blob(image.data, {1, image.rows, image.cols, 3});
  return x.permute({0, 3, 1, 2}).to(device);
}

void run(DetectorImpl &net, const cv::Mat &image, torch::Device device) {
  net.to(device);
  auto out = net.forward(preprocess(image, device));
  auto y = out * torch::ones({4});
}
