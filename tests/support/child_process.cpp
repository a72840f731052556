#include "support/child_process.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace petstore::tests {
namespace {

using Clock = std::chrono::steady_clock;

// environment_for: the test's environment without PETSTORE_* variables, plus `extra`.
std::vector<std::string> environment_for(const std::map<std::string, std::string>& extra) {
  std::vector<std::string> entries;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string text(*entry);
    const std::string name = text.substr(0, text.find('='));
    if (name.rfind("PETSTORE_", 0) != 0 && extra.count(name) == 0) {
      entries.push_back(text);
    }
  }
  for (const auto& [name, value] : extra) {
    entries.push_back(name);
    entries.back().append("=").append(value);
  }
  return entries;
}

std::vector<char*> pointers_to(std::vector<std::string>& texts) {
  std::vector<char*> pointers;
  pointers.reserve(texts.size() + 1);
  for (auto& text : texts) {
    pointers.push_back(text.data());
  }
  pointers.push_back(nullptr);
  return pointers;
}

ExitStatus decode(int wait_status) {
  ExitStatus status;
  if (WIFEXITED(wait_status)) {
    status.code = WEXITSTATUS(wait_status);
  } else if (WIFSIGNALED(wait_status)) {
    status.signal = WTERMSIG(wait_status);
  }
  return status;
}

// Pipes: the parent's read ends and the child's write ends of stdout and stderr; -1 where there is
// none (stderr to a file, or both on one terminal).
struct Pipes {
  std::array<int, 2> read_ends{-1, -1};
  std::array<int, 2> write_ends{-1, -1};

  void close_write_ends() {
    if (write_ends[1] >= 0 && write_ends[1] != write_ends[0]) {
      ::close(write_ends[1]);
    }
    if (write_ends[0] >= 0) {
      ::close(write_ends[0]);
    }
    write_ends = {-1, -1};
  }
};

bool make_pipe(int& read_end, int& write_end) {
  std::array<int, 2> fds{-1, -1};
  if (::pipe2(fds.data(), O_CLOEXEC) != 0) {
    return false;
  }
  read_end = fds[0];
  write_end = fds[1];
  return true;
}

// open_output: the descriptors the child writes its output to, per `options`.
bool open_output(const ChildOptions& options, Pipes& pipes) {
  if (options.on_terminal) {
    int terminal = -1;
    int child_side = -1;
    if (::openpty(&terminal, &child_side, nullptr, nullptr, nullptr) != 0) {
      return false;
    }
    ::fcntl(terminal, F_SETFD, FD_CLOEXEC);
    ::fcntl(child_side, F_SETFD, FD_CLOEXEC);
    pipes.read_ends[0] = terminal;
    pipes.write_ends = {child_side, child_side};
    return true;
  }
  if (!make_pipe(pipes.read_ends[0], pipes.write_ends[0])) {
    return false;
  }
  return !options.stderr_file.empty() || make_pipe(pipes.read_ends[1], pipes.write_ends[1]);
}

}  // namespace

ChildProcess::ChildProcess(const ChildOptions& options) {
  Pipes pipes;
  if (!open_output(options, pipes)) {
    pipes.close_write_ends();
    for (const int fd : pipes.read_ends) {
      if (fd >= 0) {
        ::close(fd);
      }
    }
    output_closed_ = true;
    return;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  const std::string input = options.stdin_file.empty() ? "/dev/null" : options.stdin_file.string();
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, input.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipes.write_ends[0], STDOUT_FILENO);
  if (pipes.write_ends[1] >= 0) {
    posix_spawn_file_actions_adddup2(&actions, pipes.write_ends[1], STDERR_FILENO);
  } else {
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, options.stderr_file.c_str(),
                                     O_WRONLY | O_CREAT | O_APPEND, 0600);
  }
  // The child gets stdin, stdout and stderr only: a descriptor the test inherited (the build
  // lock's, under flock) would otherwise stay held by a server the test failed to stop.
  posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1);
  if (!options.working_dir.empty()) {
    posix_spawn_file_actions_addchdir_np(&actions, options.working_dir.c_str());
  }
  std::vector<std::string> argv_texts{options.program.string()};
  argv_texts.insert(argv_texts.end(), options.args.begin(), options.args.end());
  std::vector<std::string> env_texts = environment_for(options.env);
  auto argv = pointers_to(argv_texts);
  auto envp = pointers_to(env_texts);
  if (::posix_spawn(&pid_, options.program.c_str(), &actions, nullptr, argv.data(), envp.data()) !=
      0) {
    pid_ = -1;
  }
  posix_spawn_file_actions_destroy(&actions);
  pipes.close_write_ends();  // so that the reader sees the end once the child has gone
  reader_ = std::thread([this, fds = pipes.read_ends] { read_output(fds[0], fds[1]); });
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0 && !status_) {
    kill_and_reap();
  }
  {
    const std::lock_guard lock(mutex_);
    stop_reading_ = true;  // in case something else still holds the pipes open
  }
  if (reader_.joinable()) {
    reader_.join();
  }
}

void ChildProcess::read_output(int out_fd, int err_fd) {
  std::array<pollfd, 2> fds{pollfd{out_fd, POLLIN, 0}, pollfd{err_fd, POLLIN, 0}};
  std::array<char, 4096> chunk{};
  for (;;) {
    {
      const std::lock_guard lock(mutex_);
      if (stop_reading_ || (fds[0].fd < 0 && fds[1].fd < 0)) {
        break;
      }
    }
    if (::poll(fds.data(), fds.size(), 100) < 0 && errno != EINTR) {
      break;
    }
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) {
        continue;
      }
      const ssize_t got = ::read(fds[i].fd, chunk.data(), chunk.size());
      if (got < 0 && errno == EINTR) {
        continue;
      }
      if (got <= 0) {
        ::close(fds[i].fd);
        fds[i].fd = -1;  // poll ignores negative descriptors
        continue;
      }
      const std::lock_guard lock(mutex_);
      (i == 0 ? stdout_ : stderr_).append(chunk.data(), static_cast<std::size_t>(got));
    }
    output_changed_.notify_all();
  }
  for (const auto& fd : fds) {
    if (fd.fd >= 0) ::close(fd.fd);
  }
  const std::lock_guard lock(mutex_);
  output_closed_ = true;
  output_changed_.notify_all();
}

bool ChildProcess::send_signal(int signal) {
  return pid_ > 0 && !status_ && ::kill(pid_, signal) == 0;
}

bool ChildProcess::try_reap() {
  if (status_) {
    return true;
  }
  if (pid_ <= 0) {
    status_ = ExitStatus{};
    return true;
  }
  int wait_status = 0;
  const pid_t reaped = ::waitpid(pid_, &wait_status, WNOHANG);
  if (reaped == pid_) {
    status_ = decode(wait_status);
    return true;
  }
  return false;
}

bool ChildProcess::running() { return !try_reap(); }

void ChildProcess::kill_and_reap() {
  ::kill(pid_, SIGKILL);
  int wait_status = 0;
  while (::waitpid(pid_, &wait_status, 0) < 0 && errno == EINTR) {
  }
  status_ = decode(wait_status);
  status_->timed_out = true;
}

void ChildProcess::wait_for_output_end(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  output_changed_.wait_for(lock, timeout, [this] { return output_closed_; });
}

ExitStatus ChildProcess::wait_for_exit(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (!try_reap()) {
    if (Clock::now() >= deadline) {
      kill_and_reap();
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  wait_for_output_end(std::chrono::seconds(2));
  return *status_;
}

std::optional<std::string> ChildProcess::wait_for_stdout_line(const std::string& needle,
                                                              std::chrono::milliseconds timeout) {
  std::optional<std::string> line;
  const auto found = [&] {
    std::size_t start = 0;
    for (std::size_t end = stdout_.find('\n'); end != std::string::npos;
         start = end + 1, end = stdout_.find('\n', start)) {
      if (stdout_.substr(start, end - start).find(needle) != std::string::npos) {
        line = stdout_.substr(start, end - start);
        return true;
      }
    }
    return output_closed_;
  };
  bool settled = false;
  {
    std::unique_lock lock(mutex_);
    settled = output_changed_.wait_for(lock, timeout, found);
  }
  if (!settled && pid_ > 0 && !status_) {
    kill_and_reap();
  }
  return line;
}

std::string ChildProcess::captured_stdout() const {
  const std::lock_guard lock(mutex_);
  return stdout_;
}

std::string ChildProcess::captured_stderr() const {
  const std::lock_guard lock(mutex_);
  return stderr_;
}

Completed run_to_completion(const ChildOptions& options, std::chrono::milliseconds timeout) {
  ChildProcess child(options);
  const ExitStatus status = child.wait_for_exit(timeout);
  return Completed{status, child.captured_stdout(), child.captured_stderr()};
}

std::size_t count_lines(const std::string& text) {
  const auto newlines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  return newlines + (!text.empty() && text.back() != '\n' ? 1 : 0);
}

}  // namespace petstore::tests
