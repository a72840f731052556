#include "child_process.hpp"

#include <cerrno>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace petstore::tests::system {
namespace {

int exit_code_of(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }

}  // namespace

std::unique_ptr<ChildProcess> ChildProcess::start(const std::vector<std::string>& argv,
                                                  const std::filesystem::path& stderr_file) {
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    return nullptr;
  }
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  ::posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderr_file.c_str(),
                                     O_WRONLY | O_CREAT | O_APPEND, 0600);
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const auto& arg : argv) {
    args.push_back(const_cast<char*>(arg.c_str()));
  }
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  ::posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  if (rc != 0) {
    ::close(pipe_fds[0]);
    errno = rc;  // posix_spawn returns its error instead of setting errno
    return nullptr;
  }
  return std::unique_ptr<ChildProcess>(new ChildProcess(pid, pipe_fds[0]));
}

ChildProcess::~ChildProcess() {
  if (!reaped_) {
    kill_hard();
  }
  ::close(stdout_fd_);
}

std::optional<std::string> ChildProcess::read_line(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (const auto end = pending_.find('\n'); end != std::string::npos) {
      std::string line = pending_.substr(0, end);
      pending_.erase(0, end + 1);
      return line;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      return std::nullopt;
    }
    pollfd readable{stdout_fd_, POLLIN, 0};
    const int ready = ::poll(&readable, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) {
      continue;
    }
    if (ready <= 0) {
      return std::nullopt;
    }
    char chunk[512];
    const ssize_t got = ::read(stdout_fd_, chunk, sizeof chunk);
    if (got <= 0) {
      return std::nullopt;  // end of file: the child closed stdout or died
    }
    pending_.append(chunk, static_cast<std::size_t>(got));
  }
}

void ChildProcess::kill_hard() {
  if (reaped_) {
    return;
  }
  ::kill(pid_, SIGKILL);
  (void)wait();
}

int ChildProcess::stop(std::chrono::milliseconds timeout) {
  if (reaped_) {
    return -1;
  }
  ::kill(pid_, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      reaped_ = true;
      return exit_code_of(status);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill_hard();
  return -1;
}

int ChildProcess::wait() {
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0) {
    if (errno != EINTR) {
      reaped_ = true;
      return -1;
    }
  }
  reaped_ = true;
  return exit_code_of(status);
}

std::optional<std::string> run_program(const std::vector<std::string>& argv,
                                       const std::filesystem::path& stderr_file) {
  auto child = ChildProcess::start(argv, stderr_file);
  if (!child) {
    return std::nullopt;
  }
  std::string out;
  while (auto line = child->read_line(std::chrono::seconds(30))) {
    out += *line + '\n';
  }
  if (child->wait() != 0) {
    return std::nullopt;
  }
  return out;
}

}  // namespace petstore::tests::system
