#include "petstore_process.hpp"

#include <csignal>

#include "support/child_process.hpp"

namespace petstore::tests {
namespace {

// A million pets through import or export takes minutes under the sanitizers.
constexpr std::chrono::minutes run_timeout{30};

ChildOptions petstore(const std::vector<std::string>& args, const std::filesystem::path& input,
                      bool on_terminal) {
  ChildOptions options;
  options.program = PETSTORE_BINARY;
  options.args = args;
  options.stdin_file = input;
  options.on_terminal = on_terminal;
  return options;
}

ProcessResult result_of(const Completed& run) {
  return ProcessResult{run.status.code, run.out, run.err};
}

}  // namespace

ProcessResult run_petstore(const std::vector<std::string>& args,
                           const std::filesystem::path& input) {
  return result_of(run_to_completion(petstore(args, input, false), run_timeout));
}

ProcessResult run_petstore_on_terminal(const std::vector<std::string>& args,
                                       const std::filesystem::path& input) {
  return result_of(run_to_completion(petstore(args, input, true), run_timeout));
}

std::string serve_first_line(const std::vector<std::string>& args, int& exit_code,
                             std::chrono::seconds wait) {
  ChildProcess child(petstore(args, {}, false));
  const auto line = child.wait_for_stdout_line("", wait);
  child.send_signal(SIGTERM);
  exit_code = child.wait_for_exit(std::chrono::seconds(30)).code;
  return line.value_or("");
}

}  // namespace petstore::tests
