#pragma once
// ChildWriter: a forked process that opens the LMDB repository on a data dir and keeps creating
// pets, one at a time, reporting each acknowledged id through a pipe, until stopped: the load a
// running service puts on a store while a data tool works on it. LMDB forbids a second handle on
// one environment in a process, hence a process. Fork it before this process opens the store.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <sys/types.h>
#include <vector>

namespace petstore::tests {

class ChildWriter {
 public:
  explicit ChildWriter(const std::filesystem::path& data_dir);
  ChildWriter(const ChildWriter&) = delete;
  ChildWriter& operator=(const ChildWriter&) = delete;
  ~ChildWriter();  // stops the child if the test has not

  // wait_for: blocks until at least `count` creates were acknowledged; every id acknowledged so
  // far (empty when the child died first).
  std::vector<std::int64_t> wait_for(std::size_t count);

  // drain: every id acknowledged so far, reading only what the pipe already holds.
  std::vector<std::int64_t> drain();

  // stop: tells the child to stop, collects the ids it acknowledged since, and waits for it.
  // Every id acknowledged; `exited_cleanly()` says whether every create succeeded.
  std::vector<std::int64_t> stop();

  [[nodiscard]] bool exited_cleanly() const noexcept { return exit_code_ == 0; }

 private:
  bool read_one();

  pid_t pid_ = -1;
  int acks_ = -1;                          // read end of the ids pipe
  std::atomic<int>* stop_flag_ = nullptr;  // in memory shared with the child
  std::vector<std::int64_t> ids_;
  int exit_code_ = -1;
};

}  // namespace petstore::tests
