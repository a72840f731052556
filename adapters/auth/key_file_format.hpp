#pragma once
// The API key file format (contract section 4; docs/decisions/key-file-format.md): one key a
// line, `sha256:<64 lowercase hex> [label]`; blank and `#` lines ignored. Any other line makes the
// whole file invalid, and the error names its number, never its text (it may be a pasted key).
// Extensions: `read-only` before the digest (an older petstore refuses the file rather than grant
// more), and a last word `created=...` from `keys new`:
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

// KeyEntry: one accepted line; `label` and `created` may be empty; `line` is 1-based.
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

// parse_key_file: the keys in `text`, or invalid_argument (field "api-keys") naming the first
// malformed line. A repeated key is kept once, and all repeats make one warning. Zero keys is not
// an error here: the caller decides.
[[nodiscard]] domain::Result<ParsedKeyFile> parse_key_file(std::string_view text);

// max_label_size: the longest label `keys new` writes.
inline constexpr std::size_t max_label_size = 64;

// validate_label: success when `label` is empty or up to 64 visible ASCII characters (so that its
// line stays one parseable line); else invalid_argument naming "label".
[[nodiscard]] domain::Result<void> validate_label(std::string_view label);

// key_of_line: the digest on one line of a key file (without its LF); nullopt for a blank,
// comment or malformed line.
[[nodiscard]] std::optional<KeyDigest> key_of_line(std::string_view line);

// format_key_line: the line parse_key_file reads back, "\n" included. REQUIRES:
// validate_label(label) succeeds; `created` is empty or a UTC time as YYYY-MM-DDTHH:MM:SSZ.
[[nodiscard]] std::string format_key_line(const KeyDigest& digest, std::string_view label,
                                          ports::KeyAccess access, std::string_view created);

}  // namespace petstore::adapters::auth
