#include "bootstrap/cli_fixture.hpp"

#include <algorithm>
#include <array>
#include <charconv>

#include <gtest/gtest.h>

namespace petstore::tests {
ChildOptions petstore(std::vector<std::string> args, Env env, std::filesystem::path working_dir) {
  ChildOptions options;
  options.program = PETSTORE_BINARY;
  options.args = std::move(args);
  options.env = std::move(env);
  options.working_dir = std::move(working_dir);
  return options;
}

Completed run_petstore(std::vector<std::string> args, Env env, std::filesystem::path working_dir) {
  return run_to_completion(petstore(std::move(args), std::move(env), std::move(working_dir)));
}

std::string make_key(const std::filesystem::path& file, const std::string& label) {
  std::vector<std::string> args{"keys", "new", "--api-keys", file.string()};
  if (!label.empty()) {
    args.insert(args.end(), {"--label", label});
  }
  const Completed run = run_petstore(std::move(args));
  if (!run.status.exited_with(0) || count_lines(run.out) != 1) {
    ADD_FAILURE() << "petstore keys new: code " << run.status.code << ", signal "
                  << run.status.signal << ", stdout: " << run.out << ", stderr: " << run.err;
    return {};
  }
  return run.out.substr(0, run.out.find('\n'));
}

std::vector<std::string> serve_args(const std::filesystem::path& keys,
                                    std::vector<std::string> extra) {
  std::vector<std::string> args{"serve", "--api-keys", keys.string()};
  // A flag given twice is bad usage: the defaults below give way to `extra`.
  const std::array<std::array<std::string, 2>, 2> defaults{
      {{"--listen", "127.0.0.1:0"}, {"--storage", "memory"}}};
  for (const auto& [flag, value] : defaults) {
    if (std::find(extra.begin(), extra.end(), flag) == extra.end()) {
      args.insert(args.end(), {flag, value});
    }
  }
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

std::string listening_url(const std::string& line) {
  const std::string_view said = "listening on ";
  const auto start = line.find(said);
  if (start == std::string::npos) {
    return {};
  }
  const auto end = line.find("/v1", start);
  return end == std::string::npos ? std::string()
                                  : line.substr(start + said.size(), end + 3 - start - said.size());
}

std::optional<std::uint16_t> listening_port(const std::string& line) {
  const std::string url = listening_url(line);
  const std::string_view scheme = url.starts_with("https://") ? "https://" : "http://";
  if (!url.starts_with(scheme) || !url.ends_with("/v1")) {
    return std::nullopt;
  }
  const std::string address = url.substr(scheme.size(), url.size() - scheme.size() - 3);
  const std::size_t colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0) {
    return std::nullopt;
  }
  unsigned port = 0;
  const char* const end = address.data() + address.size();
  const auto [stop, error] = std::from_chars(address.data() + colon + 1, end, port);
  if (error != std::errc{} || stop != end || port == 0 || port > 65535) {
    return std::nullopt;
  }
  return static_cast<std::uint16_t>(port);
}

ServedPetstore::ServedPetstore(const ChildOptions& options) : child_(options) {
  const auto line = child_.wait_for_stdout_line("listening on ", std::chrono::seconds(10));
  if (line) {
    line_ = *line;
    port_ = listening_port(*line).value_or(0);
  }
}

ExitStatus ServedPetstore::stop(int signal, std::chrono::milliseconds timeout) {
  child_.send_signal(signal);
  return child_.wait_for_exit(timeout);
}

std::string pet_json(const std::string& name, int category_id) {
  return R"({"name":")" + name + R"(","categoryId":)" + std::to_string(category_id) + "}";
}

}  // namespace petstore::tests
