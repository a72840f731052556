#pragma once
// A second process on one data dir, for the LMDB tests: LMDB refuses to open one environment twice
// in a process, so the second is a fork()ed child with its own repository. The child opens nothing
// of the parent's: the parent forks it before opening the store, and it leaves with _exit.

#include <sys/wait.h>
#include <unistd.h>
#include <utility>

#include <gtest/gtest.h>

namespace petstore::tests {

// Pipe: both ends, closed at destruction.
struct Pipe {
  int fds[2] = {-1, -1};
  Pipe() { EXPECT_EQ(::pipe(fds), 0); }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  ~Pipe() {
    close_read();
    close_write();
  }
  void close_read() { ::close(std::exchange(fds[0], -1)); }
  void close_write() { ::close(std::exchange(fds[1], -1)); }
};

// run_child: forks a process that waits for a byte on `go`, runs `body` and reports its exit
// code (0 when `body` returned true). Returns the child's pid.
template <class Body>
pid_t run_child(Pipe& go, Body body) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    char byte = 0;
    go.close_write();
    const bool started = ::read(go.fds[0], &byte, 1) == 1;
    bool ok = false;
    try {
      ok = started && body();
    } catch (...) {
      ok = false;
    }
    ::_exit(ok ? 0 : 1);
  }
  go.close_read();
  return pid;
}

// wait_for: the exit code of the child `pid`, or -1 when it did not exit by itself.
inline int wait_for(pid_t pid) {
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
    return -1;
  }
  return WEXITSTATUS(status);
}

}  // namespace petstore::tests
