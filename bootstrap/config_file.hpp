#pragma once
// `serve --config FILE`: a TOML file of serve's flags, under the same names without the dashes
// (`listen = "127.0.0.1:8080"`, `max-body-bytes = "64KiB"`, `allow-plain-http = true`).
// Precedence: a flag on the command line, then its environment variable, then the file, then the
// default; an empty variable counts as unset. The file's values stand in for environment variables
// that are not set, so CLI11 reads and checks them exactly as it reads the environment.

#include <optional>
#include <string>

#include "bootstrap/cli11_forward.hpp"

namespace petstore::bootstrap {

// apply_config_file: when argv runs `serve` with --config FILE (or PETSTORE_CONFIG is set), reads
// FILE and sets PETSTORE_* for each of its keys whose variable is unset or empty. Call before
// parsing, before any thread starts. The error line when FILE is no regular file, cannot be read,
// is not TOML or holds a value no flag takes (config_toml.hpp; line and column are named) or names
// a key that is no serve flag; nullopt otherwise.
[[nodiscard]] std::optional<std::string> apply_config_file(const CLI::App& serve, int argc,
                                                           const char* const* argv);

}  // namespace petstore::bootstrap
