// Forks a child that runs ops of its own (a nonzero() the parent never runs)
// and exits with status 7. The child must record nothing and write no
// report; the parent's report stays its own. With argv[1] = "_exit" the
// parent ends with _exit, leaving the report as of its last new call site,
// so that a report the child wrote would not be overwritten. argv[2], if
// given, is a file the parent writes its pid to.
#include <torch/torch.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
  bool quickExit = argc > 1 && std::strcmp(argv[1], "_exit") == 0;
  if (argc > 2)
    std::ofstream(argv[2]) << getpid() << "\n";
  torch::Tensor values = torch::arange(10);
  double before = values.sum().item<double>(); // the parent's sync
  std::cout << "before " << before << std::endl;

  pid_t child = fork();
  if (child == 0) {
    int64_t hits = torch::nonzero(values > 4).size(0); // the child's only
    double again = values.sum().item<double>();
    std::exit(hits + again > 0 ? 7 : 8);
  }
  int status = 0;
  waitpid(child, &status, 0);
  std::cout << "child exited " << WEXITSTATUS(status) << std::endl;
  if (quickExit)
    _exit(0);
  double after = (values * 2).sum().item<double>();
  std::cout << "after " << after << std::endl;
  return 0;
}
