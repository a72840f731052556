#pragma once
// The TOML (https://toml.io/en/v1.0.0) that `serve --config FILE` takes: the whole of TOML 1.0 as
// toml++ reads it, flattened into one entry a key. A value must be a string, a number, a boolean
// or an array of those, since each becomes a flag's text; anything else is refused naming its
// line and column.

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
// TOML, sets a key twice, or holds a value no flag takes (a date or time, an array inside an
// array, an array of tables, a string with a NUL character). Integers come as plain decimal text,
// floats as the shortest text that reads back the same ("nan", "inf", "-inf" included, so that
// the flags' own checks refuse them), booleans as "true"/"false".
[[nodiscard]] domain::Result<std::vector<TomlEntry>> parse_toml(std::string_view text);

}  // namespace petstore::bootstrap
