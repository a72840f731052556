#include "adapters/auth/key_file_format.hpp"

#include <map>
#include <optional>
#include <string>

namespace petstore::adapters::auth {
namespace {

constexpr std::string_view digest_prefix = "sha256:";
constexpr std::size_t hex_size = 64;

bool is_blank(char c) noexcept { return c == ' ' || c == '\t'; }

bool is_control(char c) noexcept {
  const auto byte = static_cast<unsigned char>(c);
  return byte < 0x20U || byte == 0x7FU;
}

std::string_view trim(std::string_view text) noexcept {
  while (!text.empty() && is_blank(text.front())) {
    text.remove_prefix(1);
  }
  while (!text.empty() && is_blank(text.back())) {
    text.remove_suffix(1);
  }
  return text;
}

domain::Error malformed(std::size_t line) {
  return domain::invalid_argument(
      "api-keys",
      "line " + std::to_string(line) + " is not `sha256:<64 lowercase hex digits> [label]`");
}

// parse_line: the entry on a trimmed, non-blank, non-comment line, or nullopt when malformed.
std::optional<KeyEntry> parse_line(std::string_view text, std::size_t line) {
  if (!text.starts_with(digest_prefix)) {
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
  const std::string_view label = trim(text);
  for (const char c : label) {
    if (is_control(c) && c != '\t') {
      return std::nullopt;
    }
  }
  return KeyEntry{*digest, std::string(label), line};
}

}  // namespace

domain::Result<ParsedKeyFile> parse_key_file(std::string_view text) {
  ParsedKeyFile parsed;
  std::map<KeyDigest, std::size_t> first_line_of;
  std::size_t line = 0;
  while (!text.empty()) {
    ++line;
    const std::size_t end = text.find('\n');
    std::string_view raw = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    if (raw.ends_with('\r')) {
      raw.remove_suffix(1);
    }
    const std::string_view content = trim(raw);
    if (content.empty() || content.front() == '#') {
      continue;
    }
    auto entry = parse_line(content, line);
    if (!entry) {
      return malformed(line);
    }
    const auto [seen, inserted] = first_line_of.emplace(entry->digest, line);
    if (!inserted) {
      parsed.warnings.push_back("line " + std::to_string(line) + " repeats the key of line " +
                                std::to_string(seen->second));
      continue;
    }
    parsed.keys.push_back(std::move(*entry));
  }
  return parsed;
}

domain::Result<void> validate_label(std::string_view label) {
  bool visible = label.size() <= max_label_size;
  for (const char c : label) {
    const auto byte = static_cast<unsigned char>(c);
    visible = visible && byte > 0x20U && byte < 0x7FU;
  }
  if (!visible) {
    return domain::invalid_argument(
        "label", "label must be at most 64 visible ASCII characters, without spaces");
  }
  return {};
}

std::string format_key_line(const KeyDigest& digest, std::string_view label) {
  std::string line(digest_prefix);
  line += to_hex(digest);
  if (!label.empty()) {
    line += ' ';
    line += label;
  }
  line += '\n';
  return line;
}

}  // namespace petstore::adapters::auth
