#include "petstore_process.hpp"

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <pty.h>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

#include "adapters/storage/lmdb/lmdb_test_support.hpp"

namespace petstore::tests {
namespace {

namespace fs = std::filesystem;

std::vector<char*> argv_of(std::vector<std::string>& args) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(PETSTORE_BINARY));
  for (auto& arg : args) {
    argv.push_back(arg.data());
  }
  argv.push_back(nullptr);
  return argv;
}

// exec_petstore: in the child: standard input from `input`, then exec. Never returns.
[[noreturn]] void exec_petstore(std::vector<char*>& argv, const fs::path& input) {
  const int in = ::open(input.empty() ? "/dev/null" : input.c_str(), O_RDONLY);
  if (in < 0 || ::dup2(in, STDIN_FILENO) < 0) {
    ::_exit(127);
  }
  ::execv(argv[0], argv.data());
  ::_exit(127);
}

int wait_exit_code(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      return -1;
    }
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string slurp(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace

ProcessResult run_petstore(const std::vector<std::string>& args, const fs::path& input) {
  const TempDir temp;
  const fs::path out = temp.path() / "out";
  const fs::path err = temp.path() / "err";
  auto copy = args;
  auto argv = argv_of(copy);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int out_fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int err_fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (out_fd < 0 || err_fd < 0 || ::dup2(out_fd, STDOUT_FILENO) < 0 ||
        ::dup2(err_fd, STDERR_FILENO) < 0) {
      ::_exit(127);
    }
    exec_petstore(argv, input);
  }
  if (pid < 0) {
    throw std::runtime_error("fork failed");
  }
  ProcessResult result;
  result.exit_code = wait_exit_code(pid);
  result.out = slurp(out);
  result.err = slurp(err);
  return result;
}

ProcessResult run_petstore_on_terminal(const std::vector<std::string>& args,
                                       const fs::path& input) {
  auto copy = args;
  auto argv = argv_of(copy);
  int terminal = -1;
  const pid_t pid = ::forkpty(&terminal, nullptr, nullptr, nullptr);
  if (pid == 0) {
    exec_petstore(argv, input);
  }
  if (pid < 0) {
    throw std::runtime_error("forkpty failed");
  }
  ProcessResult result;
  char buffer[4096];
  for (;;) {
    const ssize_t got = ::read(terminal, buffer, sizeof buffer);
    if (got > 0) {
      result.out.append(buffer, static_cast<std::size_t>(got));
    } else if (got < 0 && errno == EINTR) {
      continue;
    } else {
      break;  // EIO once the child has closed the terminal
    }
  }
  ::close(terminal);
  result.exit_code = wait_exit_code(pid);
  return result;
}

std::string serve_first_line(const std::vector<std::string>& args, int& exit_code,
                             std::chrono::seconds wait) {
  int fds[2];
  if (::pipe(fds) != 0) {
    throw std::runtime_error("pipe failed");
  }
  auto copy = args;
  auto argv = argv_of(copy);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    if (::dup2(fds[1], STDOUT_FILENO) < 0) {
      ::_exit(127);
    }
    exec_petstore(argv, {});
  }
  ::close(fds[1]);
  std::string line;
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (line.find('\n') == std::string::npos && std::chrono::steady_clock::now() < deadline) {
    pollfd ready{fds[0], POLLIN, 0};
    if (::poll(&ready, 1, 100) == 1) {
      char buffer[256];
      const ssize_t got = ::read(fds[0], buffer, sizeof buffer);
      if (got <= 0) {
        break;
      }
      line.append(buffer, static_cast<std::size_t>(got));
    }
  }
  ::kill(pid, SIGTERM);
  exit_code = wait_exit_code(pid);
  ::close(fds[0]);
  return line.substr(0, line.find('\n'));
}

}  // namespace petstore::tests
