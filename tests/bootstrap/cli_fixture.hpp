#pragma once
// What the command-line tests share: the real `petstore` binary (PETSTORE_BINARY, set by CMake),
// a scratch directory per test, key files made by `petstore keys new`, and a `petstore serve`
// child whose port is read from its listening line. Servers listen on 127.0.0.1:0, so tests can
// run side by side.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bootstrap/child_process.hpp"
#include "bootstrap/raw_http.hpp"

namespace petstore::tests {

using Env = std::map<std::string, std::string>;

// ScratchDir: a fresh directory under the system temp dir, removed with its contents at the end.
class ScratchDir {
 public:
  ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  ~ScratchDir();

  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

  // write: replaces `name` with `text` and chmods it to `mode` (so the umask does not matter).
  std::filesystem::path write(const std::string& name, std::string_view text,
                              unsigned mode = 0600) const;

 private:
  std::filesystem::path path_;
};

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

// listening_port: the port of a line `listening on http://HOST:PORT/v1`; nullopt otherwise.
[[nodiscard]] std::optional<std::uint16_t> listening_port(const std::string& line);

// ServedPetstore: a `petstore serve` child. port() is 0 when no listening line came within 10 s.
class ServedPetstore {
 public:
  explicit ServedPetstore(const ChildOptions& options);

  [[nodiscard]] ChildProcess& child() noexcept { return child_; }
  [[nodiscard]] std::uint16_t port() const noexcept { return port_; }
  [[nodiscard]] const std::string& listening_line() const noexcept { return line_; }

  // stop: sends `signal`, then waits at most `timeout` for the exit.
  ExitStatus stop(int signal, std::chrono::milliseconds timeout = std::chrono::seconds(10));

 private:
  ChildProcess child_;
  std::string line_;
  std::uint16_t port_ = 0;
};

// pet_json: a valid NewPet body.
[[nodiscard]] std::string pet_json(const std::string& name, int category_id = 1);

}  // namespace petstore::tests
