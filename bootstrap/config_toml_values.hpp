#pragma once
// TOML's scalars as config_toml.cpp reads them: numbers in TOML's forms (`1_000`, `0x1F`, `inf`)
// turned into the plain text the flags parse, and strings unquoted and unescaped.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace petstore::bootstrap {

// toml_number: a TOML integer or float as plain decimal text (`0x1F` becomes "31", `1_000`
// "1000", `+inf` "inf"); nullopt when `token` is none.
[[nodiscard]] std::optional<std::string> toml_number(std::string_view token);

// read_toml_string: the basic "..." (with escapes) or literal '...' string at text[pos], which
// must close on its line, appended to `out`; pos moves past it. Why it is none, else nullopt.
[[nodiscard]] std::optional<std::string> read_toml_string(std::string_view text, std::size_t& pos,
                                                          std::string& out);

}  // namespace petstore::bootstrap
