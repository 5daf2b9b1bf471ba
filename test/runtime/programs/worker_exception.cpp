// A worker thread runs an op that raises (operands on two devices when
// argv[1] is not "cpu"), catches the c10::Error, runs one more op, and hands
// the error to the main thread, which catches it too. The program ends
// normally: the report has the mixed_device event, the worker's later sync,
// and an "exit" end, not an "exception".
#include <torch/torch.h>

#include <exception>
#include <iostream>
#include <thread>

int main(int argc, char **argv) {
  torch::Device device(argc > 1 ? argv[1] : "cpu");
  std::exception_ptr failure;
  double after = 0;
  std::thread worker([&] {
    try {
      torch::Tensor remote = torch::ones({3}, device);
      torch::Tensor local = torch::ones({3});
      torch::Tensor sum = remote + local; // raises off the CPU
      std::cout << "worker " << sum.sizes() << "\n";
    } catch (...) {
      failure = std::current_exception();
    }
    // After the raise: this op is still the outermost one on this thread.
    after = torch::ones({2}).sum().item<double>();
  });
  worker.join();
  try {
    if (failure)
      std::rethrow_exception(failure);
    std::cout << "no error\n";
  } catch (const c10::Error &) {
    std::cout << "caught the worker's error\n";
  }
  std::cout << "after " << after << "\n";
  return 0;
}
