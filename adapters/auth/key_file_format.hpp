#pragma once
// The API key file format (contract section 4): one key a line, `sha256:<64 lowercase hex>
// [label]`. Blank lines and comment lines (first non-blank character `#`) are ignored; surrounding
// spaces, tabs and a CR before the LF are tolerated. Any other line makes the whole file invalid,
// and the error names its line number, never its text (a pasted key must not reach a terminal or a
// log).
//
// Two extensions (docs/decisions/key-management.md): the option `read-only` before the digest (so
// that a petstore that does not know it refuses the file rather than grant the key more), and a
// label's last word `created=YYYY-MM-DDTHH:MM:SSZ`, when `keys new` made the key.
//   read-only sha256:<hex> dashboards created=2026-11-27T22:30:00Z

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/auth/key_digest.hpp"
#include "domain/error.hpp"
#include "ports/key_verifier.hpp"

namespace petstore::adapters::auth {

// KeyEntry: one accepted line. `label` is free text for people (may be empty); `created` is the
// time `keys new` wrote ("2026-11-27T22:30:00Z"), empty when the line has none; `line` is 1-based.
struct KeyEntry {
  KeyDigest digest{};
  std::string label;
  std::string created;
  ports::KeyAccess access = ports::KeyAccess::read_write;
  std::size_t line = 0;
};

// ParsedKeyFile: the distinct keys in file order, and notes for the operator (repeated keys).
struct ParsedKeyFile {
  std::vector<KeyEntry> keys;
  std::vector<std::string> warnings;
};

// parse_key_file: the keys in `text`, or invalid_argument (field "api-keys") whose message is
// "line N is not `[read-only] sha256:<64 lowercase hex digits> [label]`". A key repeated on a later
// line is kept once; all such lines make one warning, "line 3 repeats the key of line 1" or "N
// lines repeat the keys of earlier lines (the first: line 3 repeats the key of line 1)". Zero keys
// is not an error here: the caller decides.
[[nodiscard]] domain::Result<ParsedKeyFile> parse_key_file(std::string_view text);

// max_label_size: the longest label `keys new` writes.
inline constexpr std::size_t max_label_size = 64;

// validate_label: success when `label` is empty or 1 to 64 visible ASCII characters (no space,
// no control character), so that the line written with it stays one parseable line;
// else invalid_argument naming "label".
[[nodiscard]] domain::Result<void> validate_label(std::string_view label);

// key_of_line: the digest on one line of a key file (without its LF); nullopt for a blank,
// comment or malformed line.
[[nodiscard]] std::optional<KeyDigest> key_of_line(std::string_view line);

// format_key_line: "read-only " for a read-only key, "sha256:<hex>", " <label>" when the label is
// not empty, " created=<created>" when `created` is not empty, then "\n".
// REQUIRES: validate_label(label) succeeds; `created` is empty or a UTC time as
// YYYY-MM-DDTHH:MM:SSZ.
[[nodiscard]] std::string format_key_line(const KeyDigest& digest, std::string_view label,
                                          ports::KeyAccess access, std::string_view created);

}  // namespace petstore::adapters::auth
