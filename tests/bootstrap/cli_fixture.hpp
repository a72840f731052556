#pragma once
// What the command-line tests share: the real `petstore` binary (PETSTORE_BINARY, set by CMake),
// a temporary directory per test (support/temp_dir.hpp), key files made by `petstore keys new`, and
// a `petstore serve` child whose port is read from its listening line. Servers listen on
// 127.0.0.1:0, so tests can run side by side.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "support/child_process.hpp"
#include "support/raw_http_connection.hpp"
#include "support/temp_dir.hpp"

namespace petstore::tests {

using Env = std::map<std::string, std::string>;

// petstore: options that run the binary with `args` in `working_dir` (empty: the test's own).
[[nodiscard]] ChildOptions petstore(std::vector<std::string> args, Env env = {},
                                    std::filesystem::path working_dir = {});

// run_petstore: runs the binary to its end (at most 10 s).
[[nodiscard]] Completed run_petstore(std::vector<std::string> args, Env env = {},
                                     std::filesystem::path working_dir = {});

// make_key: runs `petstore keys new --api-keys FILE [--label LABEL]`; the printed key, or "" (and a
// gtest failure saying why) when the command failed.
[[nodiscard]] std::string make_key(const std::filesystem::path& file,
                                   const std::string& label = {});

// serve_args: `serve --api-keys KEYS --listen 127.0.0.1:0 --storage memory` plus `extra`, whose
// --listen or --storage replaces the default one.
[[nodiscard]] std::vector<std::string> serve_args(const std::filesystem::path& keys,
                                                  std::vector<std::string> extra = {});

// listening_url: "http://HOST:PORT/v1" from the line that says `listening on` it (a JSON record
// or a text line); empty otherwise.
[[nodiscard]] std::string listening_url(const std::string& line);

// listening_port: the port of listening_url(line); nullopt when there is none.
[[nodiscard]] std::optional<std::uint16_t> listening_port(const std::string& line);

// ServedPetstore: a `petstore serve` child. port() is 0 when no listening line came within 10 s.
class ServedPetstore {
 public:
  explicit ServedPetstore(const ChildOptions& options);

  [[nodiscard]] ChildProcess& child() noexcept { return child_; }
  [[nodiscard]] std::uint16_t port() const noexcept { return port_; }
  [[nodiscard]] const std::string& listening_line() const noexcept { return line_; }
  [[nodiscard]] std::string listening_url() const { return tests::listening_url(line_); }

  // stop: sends `signal`, then waits at most `timeout` for the exit.
  ExitStatus stop(int signal, std::chrono::milliseconds timeout = std::chrono::seconds(10));

 private:
  ChildProcess child_;
  std::string line_;
  std::uint16_t port_ = 0;
};

// KeyedCliTest: a test with a temporary directory of its own and a key file in it holding one
// key, key_, made by `petstore keys new`.
class KeyedCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    key_ = make_key(keys_);
    ASSERT_FALSE(key_.empty());
  }

  TempDir dir_;
  std::filesystem::path keys_ = dir_.path() / "keys";
  std::string key_;
};

// pet_json: a valid NewPet body.
[[nodiscard]] std::string pet_json(const std::string& name, int category_id = 1);

}  // namespace petstore::tests
