#include "bootstrap/cli_fixture.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <fstream>
#include <random>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

#include <gtest/gtest.h>

namespace petstore::tests {
namespace {

std::filesystem::path make_unique_path() {
  static std::atomic<unsigned> counter{0};
  std::random_device random;
  return std::filesystem::temp_directory_path() /
         ("petstore-cli-test-" + std::to_string(::getpid()) + "-" +
          std::to_string(counter.fetch_add(1)) + "-" + std::to_string(random()));
}

}  // namespace

ScratchDir::ScratchDir() : path_(make_unique_path()) { std::filesystem::create_directory(path_); }

ScratchDir::~ScratchDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::filesystem::path ScratchDir::write(const std::string& name, std::string_view text,
                                        unsigned mode) const {
  const auto file = path_ / name;
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
  }
  ::chmod(file.c_str(), mode);
  return file;
}

ChildOptions petstore(std::vector<std::string> args, Env env, std::filesystem::path working_dir) {
  return ChildOptions{PETSTORE_BINARY, std::move(args), std::move(env), std::move(working_dir)};
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

std::optional<std::uint16_t> listening_port(const std::string& line) {
  const std::string_view prefix = line.rfind("listening on https://", 0) == 0
                                      ? "listening on https://"
                                      : "listening on http://";
  const std::string_view suffix = "/v1";
  if (line.rfind(prefix, 0) != 0 || line.size() < prefix.size() + suffix.size() ||
      line.compare(line.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return std::nullopt;
  }
  const std::string address =
      line.substr(prefix.size(), line.size() - prefix.size() - suffix.size());
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
