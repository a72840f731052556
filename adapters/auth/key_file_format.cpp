#include "adapters/auth/key_file_format.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>

namespace petstore::adapters::auth {
namespace {

constexpr std::string_view digest_prefix = "sha256:";
constexpr std::size_t hex_size = 64;
constexpr std::string_view read_only_option = "read-only";
constexpr std::string_view created_prefix = "created=";

bool is_blank(char c) noexcept { return c == ' ' || c == '\t'; }

// is_created_time: whether `text` is a UTC time as `created=` holds it: YYYY-MM-DDTHH:MM:SSZ.
bool is_created_time(std::string_view text) noexcept {
  constexpr std::string_view shape = "dddd-dd-ddTdd:dd:ddZ";
  return std::equal(shape.begin(), shape.end(), text.begin(), text.end(), [](char want, char c) {
    return want == 'd' ? (c >= '0' && c <= '9') : c == want;
  });
}

std::string_view trim(std::string_view text) noexcept {
  const std::size_t first = text.find_first_not_of(" \t");
  return first == std::string_view::npos
             ? std::string_view()
             : text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

domain::Error malformed(std::size_t line) {
  return domain::invalid_argument("api-keys",
                                  "line " + std::to_string(line) +
                                      " is not `[read-only] sha256:<64 lowercase hex digits> "
                                      "[label]`");
}

// take_options: the access the options before the digest give (leaving `text` at the digest), or
// nullopt for an unknown option: refused, never ignored, for an option limits a key.
std::optional<ports::KeyAccess> take_options(std::string_view& text) {
  if (text.starts_with(digest_prefix)) {
    return ports::KeyAccess::read_write;
  }
  const std::size_t end = text.find_first_of(" \t");
  if (end == std::string_view::npos) {
    return std::nullopt;
  }
  std::string_view options = text.substr(0, end);
  text = trim(text.substr(end));
  for (;;) {
    const std::size_t comma = options.find(',');
    if (options.substr(0, comma) != read_only_option) {
      return std::nullopt;
    }
    if (comma == std::string_view::npos) {
      return ports::KeyAccess::read_only;
    }
    options.remove_prefix(comma + 1);
  }
}

// parse_line: the entry on a trimmed, non-blank, non-comment line, or nullopt when malformed.
std::optional<KeyEntry> parse_line(std::string_view text, std::size_t line) {
  const auto access = take_options(text);
  if (!access || !text.starts_with(digest_prefix)) {
    return std::nullopt;
  }
  text.remove_prefix(digest_prefix.size());
  const auto digest = parse_hex_digest(text.substr(0, hex_size));
  if (!digest) {
    return std::nullopt;
  }
  text.remove_prefix(hex_size);
  if (!text.empty() && !is_blank(text.front())) {
    return std::nullopt;  // more hex digits, or junk glued to the digest
  }
  std::string_view label = trim(text);
  if (std::any_of(label.begin(), label.end(), [](char c) {
        return (static_cast<unsigned char>(c) < 0x20U && c != '\t') || c == 0x7F;
      })) {
    return std::nullopt;  // a control character
  }
  std::string_view created;
  const std::size_t last_word = label.find_last_of(" \t");
  const std::string_view word =
      label.substr(last_word == std::string_view::npos ? 0 : last_word + 1);
  if (word.starts_with(created_prefix) && is_created_time(word.substr(created_prefix.size()))) {
    created = word.substr(created_prefix.size());
    label = trim(label.substr(0, label.size() - word.size()));
  }
  return KeyEntry{*digest, std::string(label), std::string(created), *access, line};
}

// key_content: a line's text without its CR and surrounding blanks; empty for a comment.
std::string_view key_content(std::string_view raw) noexcept {
  if (raw.ends_with('\r')) {
    raw.remove_suffix(1);
  }
  const std::string_view content = trim(raw);
  return content.starts_with('#') ? std::string_view() : content;
}

}  // namespace

domain::Result<ParsedKeyFile> parse_key_file(std::string_view text) {
  ParsedKeyFile parsed;
  // Sized up front for as many keys as the text can hold: no rehashing or moves for a large file.
  const auto lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  const std::size_t most_keys =
      std::min(lines, text.size() / (digest_prefix.size() + hex_size) + 1);
  std::unordered_map<KeyDigest, std::size_t, KeyDigestHash> first_line_of;
  first_line_of.reserve(most_keys);
  parsed.keys.reserve(most_keys);
  // Repeated keys make one warning however many there are (a file of a million copies of one line
  // must not print a million lines); it names the first repeat and the line it repeats.
  std::size_t repeats = 0;
  std::string first_repeat;
  std::size_t line = 0;
  while (!text.empty()) {
    ++line;
    const std::size_t end = text.find('\n');
    std::string_view raw = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    const std::string_view content = key_content(raw);
    if (content.empty()) {
      continue;
    }
    auto entry = parse_line(content, line);
    if (!entry) {
      return malformed(line);
    }
    const auto [seen, inserted] = first_line_of.emplace(entry->digest, line);
    if (!inserted) {
      if (repeats++ == 0) {
        first_repeat = "line " + std::to_string(line) + " repeats the key of line " +
                       std::to_string(seen->second);
      }
      continue;
    }
    parsed.keys.push_back(std::move(*entry));
  }
  if (repeats == 1) {
    parsed.warnings.push_back(std::move(first_repeat));
  } else if (repeats > 1) {
    parsed.warnings.push_back(
        std::to_string(repeats) +
        " lines repeat the keys of earlier lines (the first: " + first_repeat + ")");
  }
  return parsed;
}

domain::Result<void> validate_label(std::string_view label) {
  const bool visible = std::all_of(label.begin(), label.end(), [](char c) {
    return static_cast<unsigned char>(c) > 0x20U && static_cast<unsigned char>(c) < 0x7FU;
  });
  if (label.size() > max_label_size || !visible) {
    return domain::invalid_argument(
        "label", "label must be at most 64 visible ASCII characters, without spaces");
  }
  return {};
}

std::optional<KeyDigest> key_of_line(std::string_view line) {
  const std::string_view content = key_content(line);
  const auto entry = content.empty() ? std::nullopt : parse_line(content, 0);
  return entry ? std::optional(entry->digest) : std::nullopt;
}

std::string format_key_line(const KeyDigest& digest, std::string_view label,
                            ports::KeyAccess access, std::string_view created) {
  std::string line =
      access == ports::KeyAccess::read_only ? std::string(read_only_option) + ' ' : std::string();
  line.append(digest_prefix).append(to_hex(digest));
  if (!label.empty()) {
    line.append(" ").append(label);
  }
  if (!created.empty()) {
    line.append(" ").append(created_prefix).append(created);
  }
  line += '\n';
  return line;
}

}  // namespace petstore::adapters::auth
