#pragma once
// The TOML 1.0 that `serve --config FILE` takes, read by toml++ and flattened into one entry a
// key. Each value becomes a flag's text, so only strings, numbers, booleans and arrays of those.

#include <string>
#include <string_view>
#include <vector>

#include "domain/error.hpp"

namespace petstore::bootstrap {

struct TomlEntry {
  std::string key;                  // dotted with its tables' names: "listen", "server.listen"
  std::vector<std::string> values;  // one, or an array's elements; strings unquoted
  int line = 0;                     // where the key (its last part, if dotted) is written
  int column = 0;
};

// parse_toml: the entries of `text` in file order; an error "line L, column C: why" when it is not
// TOML, sets a key twice, or holds a value no flag takes (a date or time, a nested array, an array
// of tables, a string with a NUL). Floats come as the shortest text that reads back the same
// ("nan" and "inf" too, so that the flags' own checks refuse them).
[[nodiscard]] domain::Result<std::vector<TomlEntry>> parse_toml(std::string_view text);

}  // namespace petstore::bootstrap
