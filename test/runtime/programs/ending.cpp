// Ends as argv[1] says, after the same sync op twice at one call site: the
// first makes a new site (the report is written), the second only counts.
//   return: returns 5 from main      exit:  std::exit(3)
//   _exit:  _exit(4) (the report stays as of the first sync)
//   segv:   raise(SIGSEGV)           abort: abort()
//   fault:  writes through a null pointer (a real SIGSEGV)
//   throw:  throws a std::runtime_error nobody catches
#include <torch/torch.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <unistd.h>

int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "return";
  torch::Tensor values = torch::arange(4);
  double total = 0;
  for (int step = 0; step < 2; ++step)
    total += values.sum().item<double>();
  std::cout << "total " << total << std::endl;

  if (std::strcmp(how, "exit") == 0)
    std::exit(3);
  if (std::strcmp(how, "_exit") == 0)
    _exit(4);
  if (std::strcmp(how, "segv") == 0)
    std::raise(SIGSEGV);
  if (std::strcmp(how, "fault") == 0)
    *static_cast<volatile int *>(nullptr) = 1;
  if (std::strcmp(how, "abort") == 0)
    std::abort();
  if (std::strcmp(how, "throw") == 0)
    throw std::runtime_error("nobody catches this");
  return 5;
}
