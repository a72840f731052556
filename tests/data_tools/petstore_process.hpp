#pragma once
// The real `petstore` binary (PETSTORE_BINARY, set by CMake) run as a child process: its exit
// code and everything it wrote, or, for `serve`, its first line and then a SIGTERM.

#include <chrono>
#include <filesystem>
#include <string>
#include <sys/types.h>
#include <vector>

namespace petstore::tests {

struct ProcessResult {
  int exit_code = -1;  // -1 when it did not exit normally
  std::string out;
  std::string err;
};

// run_petstore: runs `petstore args...` with standard input from `input` (/dev/null when empty)
// and standard output and error captured, and waits for it.
[[nodiscard]] ProcessResult run_petstore(const std::vector<std::string>& args,
                                         const std::filesystem::path& input = {});

// run_petstore_on_terminal: the same with standard output and error on a pseudo-terminal; `out`
// holds what the terminal received.
[[nodiscard]] ProcessResult run_petstore_on_terminal(const std::vector<std::string>& args,
                                                     const std::filesystem::path& input);

// serve_first_line: starts `petstore args...`, returns its first line of standard output (empty
// if none came within `wait`), then stops it with SIGTERM; `exit_code` receives its exit code.
[[nodiscard]] std::string serve_first_line(const std::vector<std::string>& args, int& exit_code,
                                           std::chrono::seconds wait = std::chrono::seconds(60));

}  // namespace petstore::tests
