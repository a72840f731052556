#pragma once
// The API key file format (contract section 4): one key a line, `sha256:<64 lowercase hex>
// [label]`. Blank lines and comment lines (first non-blank character `#`) are ignored; surrounding
// spaces, tabs and a CR before the LF are tolerated. Any other line makes the whole file invalid,
// and the error names its line number, never its text (a pasted key must not reach a terminal or a
// log).

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/auth/key_digest.hpp"
#include "domain/error.hpp"

namespace petstore::adapters::auth {

// KeyEntry: one accepted line. `label` is free text for people (may be empty); `line` is 1-based.
struct KeyEntry {
  KeyDigest digest{};
  std::string label;
  std::size_t line = 0;
};

// ParsedKeyFile: the distinct keys in file order, and notes for the operator (repeated keys).
struct ParsedKeyFile {
  std::vector<KeyEntry> keys;
  std::vector<std::string> warnings;
};

// parse_key_file: the keys in `text`, or invalid_argument (field "api-keys") whose message is
// "line N is not `sha256:<64 lowercase hex digits> [label]`". A key repeated on a later line is
// kept once; all such lines make one warning, "line 3 repeats the key of line 1" or "N lines
// repeat the keys of earlier lines (the first: line 3 repeats the key of line 1)". Zero keys is not
// an error here: the caller decides.
[[nodiscard]] domain::Result<ParsedKeyFile> parse_key_file(std::string_view text);

// max_label_size: the longest label `keys new` writes.
inline constexpr std::size_t max_label_size = 64;

// validate_label: success when `label` is empty or 1 to 64 visible ASCII characters (no space,
// no control character), so that the line written with it stays one parseable line;
// else invalid_argument naming "label".
[[nodiscard]] domain::Result<void> validate_label(std::string_view label);

// format_key_line: "sha256:<hex>" plus " <label>" when the label is not empty, plus "\n".
// REQUIRES: validate_label(label) succeeds.
[[nodiscard]] std::string format_key_line(const KeyDigest& digest, std::string_view label);

}  // namespace petstore::adapters::auth
