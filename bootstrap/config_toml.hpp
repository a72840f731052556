#pragma once
// The part of TOML (https://toml.io/en/v1.0.0) that `serve --config FILE` takes, read strictly:
// comments, `[table]` headers, and `key = value` whose value is a string, a number, a boolean or
// an array of those (an array may span lines). Anything else, a key set twice among them, is an
// error naming its line: CLI11's own reader skips or guesses at such lines.

#include <string>
#include <string_view>
#include <vector>

#include "domain/error.hpp"

namespace petstore::bootstrap {

struct TomlEntry {
  std::string key;                  // dotted with its table's name: "listen", "server.listen"
  std::vector<std::string> values;  // one, or an array's elements; strings unquoted
  int line = 0;
};

// parse_toml: the entries of `text` in file order; an error "line N: why" when it is not TOML of
// that subset. Numbers come as written without `_` (integers in decimal), booleans as
// "true"/"false", so `nan` and `inf` reach the flags' own checks.
[[nodiscard]] domain::Result<std::vector<TomlEntry>> parse_toml(std::string_view text);

}  // namespace petstore::bootstrap
