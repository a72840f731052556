#pragma once
// ChildProcess: a program a system test runs, its stdout read through a pipe (line by line, with
// a timeout) and its stderr appended to a file the test can show when something fails. kill_hard
// is the crash (SIGKILL: nothing of the child runs after it); the destructor kills and reaps a
// child still running, so a failing test leaves no process behind.

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace petstore::tests::system {

class ChildProcess {
 public:
  // start: runs argv[0] (a path) with `argv`; nullptr, with errno set, when it cannot be spawned.
  [[nodiscard]] static std::unique_ptr<ChildProcess> start(
      const std::vector<std::string>& argv, const std::filesystem::path& stderr_file);

  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess();

  // read_line: the next line of stdout without its '\n'; nullopt at end of file or when no
  // whole line arrives within `timeout`.
  [[nodiscard]] std::optional<std::string> read_line(std::chrono::milliseconds timeout);

  // kill_hard: SIGKILL, then reaps the child.
  void kill_hard();

  // stop: SIGTERM, then waits up to `timeout`; the exit code, or -1 when the child did not exit
  // by itself in time (it is then killed) or died of a signal.
  [[nodiscard]] int stop(std::chrono::milliseconds timeout);

  // wait: waits for the child to end; its exit code, or -1 when it died of a signal.
  [[nodiscard]] int wait();

 private:
  ChildProcess(pid_t pid, int stdout_fd) : pid_(pid), stdout_fd_(stdout_fd) {}

  pid_t pid_;
  int stdout_fd_;
  std::string pending_;  // stdout read but not yet returned as a line
  bool reaped_ = false;
};

// run_program: runs `argv` to its end; its whole stdout, or nullopt when it fails to start or
// exits other than 0.
[[nodiscard]] std::optional<std::string> run_program(const std::vector<std::string>& argv,
                                                     const std::filesystem::path& stderr_file);

}  // namespace petstore::tests::system
