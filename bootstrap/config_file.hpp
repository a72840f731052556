#pragma once
// `serve --config FILE`: a TOML file of serve's flags under the same names without the dashes
// (docs/decisions/config-file.md). Precedence: command line, environment, file, default. The
// file's values stand in for unset environment variables, so CLI11 checks them as it checks those.

#include <optional>
#include <string>

#include "bootstrap/cli11_forward.hpp"

namespace petstore::bootstrap {

// apply_config_file: when argv runs `serve` with --config FILE (or PETSTORE_CONFIG is set), sets
// PETSTORE_* for each of FILE's keys whose variable is unset or empty. Call before parsing, before
// any thread starts. The error line when FILE is no regular file, cannot be read, is refused by
// parse_toml or names no serve flag; nullopt otherwise.
[[nodiscard]] std::optional<std::string> apply_config_file(const CLI::App& serve, int argc,
                                                           const char* const* argv);

}  // namespace petstore::bootstrap
