#pragma once
// ChildProcess: the one way a test runs a program: a child process (posix_spawn) with stdin from
// /dev/null or a file, and stdout and stderr captured by a reader thread (or stderr appended to a
// file, or both on a pseudo-terminal). Every wait is bounded: a wait that times out kills the
// child by its PID (SIGKILL) and reaps it, and so does the destructor, so a hung child never
// outlives its test. The environment is the test's own minus every PETSTORE_* variable, plus
// what the caller adds, so that a developer's shell cannot change what a test sees.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <sys/types.h>
#include <thread>
#include <vector>

namespace petstore::tests {

// ExitStatus: how a child ended. `timed_out` means the wait gave up and killed it.
struct ExitStatus {
  int code = -1;   // the exit code when the child exited by itself, else -1
  int signal = 0;  // the signal that ended it, else 0
  bool timed_out = false;

  [[nodiscard]] bool exited_with(int expected) const {
    return !timed_out && signal == 0 && code == expected;
  }
};

// ChildOptions: what to run and where. `env` entries are added to (or replace) the environment.
struct ChildOptions {
  std::filesystem::path program;
  std::vector<std::string> args;  // without argv[0]
  std::map<std::string, std::string> env;
  std::filesystem::path working_dir;  // empty: the test's own
  std::filesystem::path stdin_file;   // empty: /dev/null
  std::filesystem::path stderr_file;  // empty: captured; else appended to, kept for a post-mortem
  bool on_terminal = false;  // stdout and stderr on one pseudo-terminal, captured as stdout
};

class ChildProcess {
 public:
  // Starts the child; pid() is -1 when it could not be spawned (a test then fails on its waits).
  explicit ChildProcess(const ChildOptions& options);
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess();

  [[nodiscard]] pid_t pid() const noexcept { return pid_; }

  // send_signal: kill(pid, signal) while the child has not been reaped; false otherwise.
  bool send_signal(int signal);

  // wait_for_exit: the child's exit status, waiting at most `timeout` (then killing it).
  ExitStatus wait_for_exit(std::chrono::milliseconds timeout);

  // running: true while the child has not exited (checked without blocking).
  [[nodiscard]] bool running();

  // wait_for_stdout_line: the first complete stdout line containing `needle`; nullopt when the
  // child closed its stdout without one, or after `timeout` (then the child is killed).
  std::optional<std::string> wait_for_stdout_line(const std::string& needle,
                                                  std::chrono::milliseconds timeout);

  // Everything captured so far.
  [[nodiscard]] std::string captured_stdout() const;
  [[nodiscard]] std::string captured_stderr() const;

 private:
  void read_output(int out_fd, int err_fd);
  void wait_for_output_end(std::chrono::milliseconds timeout);
  void kill_and_reap();
  bool try_reap();

  pid_t pid_ = -1;
  std::optional<ExitStatus> status_;
  mutable std::mutex mutex_;
  std::condition_variable output_changed_;
  std::string stdout_;
  std::string stderr_;
  bool output_closed_ = false;
  bool stop_reading_ = false;
  std::thread reader_;
};

// Completed: a child run to its end.
struct Completed {
  ExitStatus status;
  std::string out;
  std::string err;
};

// run_to_completion: runs the child and waits at most `timeout` for it to exit (then kills it).
Completed run_to_completion(const ChildOptions& options,
                            std::chrono::milliseconds timeout = std::chrono::seconds(10));

// count_lines: the number of newline-terminated lines in `text`, plus one for an unterminated
// tail.
[[nodiscard]] std::size_t count_lines(const std::string& text);

}  // namespace petstore::tests
