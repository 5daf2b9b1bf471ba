// Runs no LibTorch op: the process a program under the shim starts and that
// inherits its LD_PRELOAD (a shell, a helper), built like the other test
// programs so that it runs wherever they do (also against a LibTorch whose
// C library is not this machine's, where this machine's shell could not
// load the shim).
//   spawn exit <status> [<command> [<args>...]]: runs the command and waits
//     for it, then exits with <status>
//   spawn signal <number>: dies of that signal
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc >= 3 && std::strcmp(argv[1], "signal") == 0) {
    std::raise(std::atoi(argv[2]));
    return 1;
  }
  if (argc < 3 || std::strcmp(argv[1], "exit") != 0) {
    std::fprintf(stderr, "usage: spawn exit <status> [<command>...] | "
                         "spawn signal <number>\n");
    return 2;
  }
  if (argc > 3) {
    pid_t child = fork();
    if (child == 0) {
      execvp(argv[3], argv + 3);
      std::perror(argv[3]);
      _exit(127);
    }
    int status = 0;
    if (child < 0 || waitpid(child, &status, 0) != child)
      return 2;
  }
  return std::atoi(argv[2]);
}
